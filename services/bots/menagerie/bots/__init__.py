"""The bot pool: a dispatcher that reads turn feeds and Celery workers that play."""
