# syntax=docker/dockerfile:1
# The gateway's image: the web app built with Node from its lockfile, served with the Connect API by
# `menagerie-gateway` (services/gateway). Its own file, beside deploy/docker/Dockerfile (one image per
# gRPC process), because only this image needs a Node build stage. Build context: the repository root.
#   docker build -f deploy/docker/gateway.Dockerfile -t menagerie/gateway:0.1.0 .

FROM node:20-slim AS web
WORKDIR /web
COPY clients/web/package.json clients/web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY clients/web/index.html clients/web/vite.config.ts clients/web/tsconfig.json ./
COPY clients/web/src ./src
RUN npm run build

FROM python:3.11-slim AS gateway
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
COPY constraints.txt ./
COPY protos/python ./protos/python
COPY shared ./shared
COPY services ./services
RUN pip install --no-cache-dir -c constraints.txt ./protos/python ./shared/*/ ./services/*/ \
    && rm -rf /src \
    && groupadd --system --gid 10001 menagerie \
    && useradd --system --uid 10001 --gid 10001 --create-home --home-dir /home/menagerie menagerie
COPY --from=web /web/dist /srv/web
USER 10001:10001
WORKDIR /home/menagerie
ENV MENAGERIE_HOST=0.0.0.0 \
    MENAGERIE_PORT=8080 \
    MENAGERIE_STATIC_DIR=/srv/web
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['MENAGERIE_PORT'] + '/healthz', timeout=4)"]
CMD ["menagerie-gateway"]
