"""The `menagerie` command in a pseudo-terminal, driven like a person would (pexpect)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
import pexpect
import pytest

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.lifetime import die_with_parent
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.probes import wait_for

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
# The whole platform in one process, started once for the session (deploy/local/minimatch.py).
pytest_plugins = ["tests.support.minimatch"]

MENAGERIE = str(Path(sys.executable).parent / "menagerie")
CHOOSE = r"Choose \[[^\]]*\](?: \(\d+ s left\))?: "


def spawn(*args: str, home: str = "") -> pexpect.spawn[str]:
    """`menagerie *args` in a pseudo-terminal; its kept player in `home` (a fresh directory by default)."""
    env = {**os.environ, "COLUMNS": "160", "TERM": "dumb", "MENAGERIE_HOME": home or tempfile.mkdtemp()}
    # Tied to this process (SIGKILL when it dies), besides the SIGHUP its terminal's end would bring.
    command, *argv = die_with_parent([MENAGERIE, *args])
    return pexpect.spawn(command, argv, encoding="utf-8", timeout=60, dimensions=(50, 160), env=env)


def test_play_a_few_moves_then_quit_cleanly(minimatch: RunningMinimatch) -> None:
    child = spawn(
        "--lobby", minimatch.lobby, "play", "beasts", "--mode", "training", "--players", "3", "--max-wait", "1"
    )
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect("Waiting for players")
    child.expect(r"Seated at Seat \d of 3 \(2 bots\) in match (\w+)\.")
    child.expect(CHOOSE)  # the choice screen: no board as the match starts (one screen of 80×24)
    child.sendline("b")  # the board, a page at a time
    child.expect("Players")
    child.expect(r"The board, page 1/\d+ \(")
    child.expect(CHOOSE)
    child.sendline("")  # Enter: the choice again
    child.expect(CHOOSE)
    child.sendline("99")
    child.expect("Type 1")
    child.sendline("r")  # the code of the turn's first action, rolling the die
    child.expect(CHOOSE)
    for _ in range(2):
        child.sendline("1")
        child.expect(CHOOSE)
    child.sendline("q")
    child.expect("You left the match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert re.search(r"You rolled [1-6]\.", transcript), "the first choice of a turn is the roll"
    assert "Board: the streets between spaces" in transcript


def test_watch_a_bot_match_as_a_spectator_to_the_end(minimatch: RunningMinimatch) -> None:
    game = GameClient("beasts", minimatch.games["beasts"])
    service_token = KEYS.signer().issue_service("e2e", 600)[0]
    match = game.create(service_token, mode="capture", seats=2, bots=(0, 1))
    game.close()
    child = spawn("--lobby", minimatch.lobby, "watch", match.match_id)
    child.expect("The match begins")
    child.expect("Game over — ", timeout=120)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_games_lists_each_bot_level_by_rating_and_names_the_game_of_luck(minimatch: RunningMinimatch) -> None:
    """Issue 33: `menagerie games` shows the levels as rated ("Bot · about 21") and the ladder's note on luck."""
    child = spawn("--lobby", minimatch.lobby, "games")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    listing = child.before or ""
    # Rich draws 80 columns on a dumb terminal: each level stays on its line; the note below may wrap.
    assert re.search(r"│ mcts 1 s: Bot · about -?\d+ +│", listing), listing
    assert re.search(r"│ random: Bot · about -?\d+ +│", listing), listing
    note = r"beasts capture: A game of luck: the random bot, which picks any legal move, won \d+ of its \d+ ladder"
    assert re.search(note, " ".join(listing.split())), listing


def test_server_errors_read_as_sentences(minimatch: RunningMinimatch) -> None:
    child = spawn("--lobby", "127.0.0.1:1", "games")
    child.expect(r"The server at 127\.0\.0\.1:1 is not reachable\. Is the platform running \(make run\)\?")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    # Any game the lobby offers can be played (a game without a board on the generic one): the lobby refuses others.
    child = spawn("--lobby", minimatch.lobby, "play", "chess")
    child.expect(r"The request was not valid: unknown game 'chess'; games: [a-z, ]+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_play_zoo_drafts_a_few_cards_then_quits_cleanly(minimatch: RunningMinimatch) -> None:
    child = spawn("--lobby", minimatch.lobby, "play", "zoo", "--mode", "advanced", "--players", "4", "--max-wait", "1")
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Seated at Seat \d of 4 \(3 bots\) in match (\w+)\.")
    for _ in range(3):
        child.expect(CHOOSE)
        child.sendline("1")
    child.expect(CHOOSE)
    child.sendline("q")
    child.expect("You left the match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert "Fantasy Zoo · round 1/5" in transcript
    assert re.search(r"You picked (the )?[A-Z]", transcript), f"picking a card is announced:\n{transcript}"


def test_play_pursuit_with_a_bot_takes_a_turn_then_quits_cleanly(minimatch: RunningMinimatch) -> None:
    child = spawn(
        "--lobby", minimatch.lobby, "play", "pursuit", "--mode", "coop", "--players", "2",
        "--option", "difficulty=easy", "--bot-level", "greedy", "--max-wait", "1",
    )  # fmt: skip
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Seated at Seat \d of 2 \(1 bots?\) in match (\w+)\.")
    # This seat is asked in every reaction window (it may pass) and on its own turn. No beast
    # can end the match in the first round, so its own turn comes: answer until it has made
    # a choice of its own turn, then leave (the team may also lose first, ending the match).
    own_turn = re.compile(r"— Turn \d+: You roll the dice\.")
    answered, after_own_turn = 0, 0
    child.expect(CHOOSE, timeout=120)
    child.sendline("b")  # the board on demand
    child.expect("Player boards")
    child.sendline("")  # Enter: the choice again (or nothing, if the match moved on meanwhile)
    while child.expect([CHOOSE, "Game over — "], timeout=120) == 0:
        if after_own_turn:
            child.sendline("q")
            child.expect("You left the match")
            break
        # In the keep-dice toggles, "1" marks a die: confirm instead (keeping what is marked).
        child.sendline("c" if "c confirm" in str(child.after) else "1")
        answered += 1
        after_own_turn += bool(own_turn.search(seen.getvalue()))
        assert answered < 60, "this seat's own turn never came"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert answered >= 1
    assert "The chase begins: " in transcript and "Player boards" in transcript, transcript
    assert own_turn.search(transcript), transcript


def test_play_snitch_against_a_bot_through_the_kick_off_then_quit_cleanly(minimatch: RunningMinimatch) -> None:
    child = spawn(
        "--lobby", minimatch.lobby, "play", "snitch", "--mode", "basic", "--players", "2",
        "--bot-level", "greedy", "--max-wait", "1",
    )  # fmt: skip
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Seated at Seat \d of 2 \(1 bots?\) in match (\w+)\.")
    # Answer every decision of this seat with its first choice until the first Game Sequence
    # begins (the Kick-Off's Bludger and deployment moves are the seat's own), then leave.
    answered = 0
    while "Game Sequence 1 begins" not in seen.getvalue():
        assert child.expect([CHOOSE, "Game over — "], timeout=120) == 0, "the match ended before it began"
        child.sendline("1")
        answered += 1
        assert answered < 40, "the Kick-Off never ended"
    child.expect(CHOOSE)
    child.sendline("q")
    child.expect("You left the match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert re.search(r"puts? Bludger 1 in ", transcript) and "deploys to " in transcript, transcript
    assert "Snitch" in transcript and "Centre" in transcript, "the pitch and the race are drawn"


def kept_token(home: str, lobby: str) -> str:
    """The player token the command kept for `lobby` in `home`."""
    return str(json.loads((Path(home) / "players.json").read_text(encoding="utf-8"))[lobby]["token"])


def test_watch_a_zoo_match_without_naming_the_game_redraws_the_board_as_it_changes(
    minimatch: RunningMinimatch,
) -> None:
    game = GameClient("zoo", minimatch.games["zoo"])
    service_token = KEYS.signer().issue_service("e2e", 600)[0]
    match = game.create(service_token, mode="beginner", seats=2, seed=5)  # the test plays both seats
    game.close()  # no gRPC channel open across the fork of spawn (it can crash the child)
    child = spawn("--lobby", minimatch.lobby, "watch", match.match_id)  # no --game: the lobby's services are asked
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Fantasy Zoo · round 1/5")
    game = GameClient("zoo", minimatch.games["zoo"])
    try:
        game.play_to_end(match, random.Random(5))
    finally:
        game.close()
    child.expect(r"Fantasy Zoo · round 2/5", timeout=120)  # the board again, mid-match
    child.expect("Game over: ", timeout=120)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert transcript.count("Fantasy Zoo · round ") >= 3, "drawn at the start, as it changes and at the end"
    assert "Player 0" in transcript and "Player 1" in transcript


def test_ctrl_c_while_queued_cancels_the_ticket(minimatch: RunningMinimatch) -> None:
    home = tempfile.mkdtemp()
    # Nobody else queues for 6 seats without bots: the ticket waits until Ctrl-C.
    child = spawn(
        "--lobby", minimatch.lobby, "play", "beasts", "--mode", "capture", "--players", "6", "--no-bots",
        "--max-wait", "600", home=home,
    )  # fmt: skip
    child.expect(r"Queued for beasts \(capture\), ticket (\S+?)\.\r?\n")
    ticket_id = str(child.match.group(1))  # type: ignore[union-attr]
    child.expect("Waiting for players")
    child.sendintr()
    child.expect(rf"Left the queue \(ticket {ticket_id} cancelled\)\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    channel = grpc.insecure_channel(minimatch.lobby)
    try:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        request = lobby_pb2.WatchTicketRequest(ticket_id=ticket_id)
        auth = bearer(kept_token(home, minimatch.lobby))
        last = list(lobby.WatchTicket(request, metadata=auth, timeout=30))[-1]
    finally:
        channel.close()
    assert last.ticket.status == lobby_pb2.TICKET_STATUS_CANCELLED


def test_when_the_turn_timer_runs_out_the_choice_is_refreshed_not_left_stale(minimatch: RunningMinimatch) -> None:
    child = spawn(
        "--lobby", minimatch.lobby, "play", "zoo", "--mode", "beginner", "--players", "2", "--turn-timer", "3",
        "--max-wait", "1",
    )  # fmt: skip
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(CHOOSE)
    assert re.search(r"\(\d s left\)", str(child.after)), "the countdown is on the input line"
    # No answer: the timeout bot picks for this seat, and the menu of the next pick replaces the old one.
    child.expect(r"Your turn timer ran out; a bot chose: Pick #\d+ ", timeout=120)
    child.expect("The position changed: choose from the new one.", timeout=120)
    child.expect(CHOOSE)
    child.sendline("q")
    child.expect("You left the match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.extended  # ResumeSeat itself is make test's (tests/e2e/web/test_resume.py); the CLI's way to it here
def test_resume_lists_the_match_and_plays_the_seat_again(minimatch: RunningMinimatch) -> None:
    home = tempfile.mkdtemp()
    nothing = spawn("--lobby", minimatch.lobby, "resume", home=home)
    nothing.expect("This terminal has played no match at this lobby yet")
    nothing.expect(pexpect.EOF)
    nothing.close()
    assert nothing.exitstatus == 1

    # Two people at the table: the match waits for the one who stays, so it is still on when the other returns
    # (a match every person left is played out by the bots at once). The option keeps other tests' tickets away.
    table = ("play", "zoo", "--mode", "beginner", "--players", "2", "--no-bots", "--max-wait", "30")
    unique = ("--option", "negative_values=count_as_zero")
    child = spawn("--lobby", minimatch.lobby, *table, *unique, "--name", "Resumer", home=home)
    stayer = spawn("--lobby", minimatch.lobby, *table, *unique, "--name", "Stayer")
    child.expect(r"Seated at Seat (\d) of 2 in match (\w+)\.")
    seat, match_id = str(child.match.group(1)), str(child.match.group(2))  # type: ignore[union-attr]
    stayer.expect(rf"in match {match_id}\.")
    child.expect(CHOOSE)
    child.sendline("q")
    child.expect(r"You left the match\. Until you come back \(menagerie resume\)")
    child.expect(pexpect.EOF)
    child.close()
    # `q` handed the seat to a bot, which plays its decision at once (not when its 60 s timer runs out).
    game = GameClient("zoo", minimatch.games["zoo"])
    service_token = KEYS.signer().issue_service("e2e", 600)[0]
    index = int(seat) - 1
    assert list(game.summary(match_id, service_token).away) == [index]
    wait_for(
        lambda: game.summary(match_id, service_token).decisions[index].by_player >= 1, 15, "a bot to play the left seat"
    )
    stayer.expect(CHOOSE)
    stayer.sendline("1")  # the round's other pick: the next round asks the returning player

    again = spawn("--lobby", minimatch.lobby, "resume", home=home)
    seen = io.StringIO()
    again.logfile_read = seen
    again.expect(rf"Back at Seat {seat} of match {match_id} \(zoo, beginner\)\.")
    again.expect(CHOOSE)
    assert list(game.summary(match_id, service_token).away) == [], "resume takes the seat back from the bot"
    game.close()
    stayer.sendline("q")
    stayer.expect("You left the match")
    stayer.close()
    again.sendline("1")
    again.expect(r"You picked (the )?[A-Z]")
    again.sendline("q")
    again.expect("You left the match")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0
    assert match_id in seen.getvalue() and "Resumer" in seen.getvalue(), "the match is listed with its players"


def test_a_new_name_renames_the_kept_player_and_resume_still_finds_its_match(minimatch: RunningMinimatch) -> None:
    home = tempfile.mkdtemp()
    table = ("play", "zoo", "--mode", "beginner", "--players", "2", "--max-wait", "1")
    # The first guest stays at its seat (a match every person left is played out by the bots at once).
    first = spawn("--lobby", minimatch.lobby, *table, "--name", "Before", home=home)
    first.expect(r"Seated at Seat (\d) of 2 \(1 bots?\) in match (\w+)\.")
    match_id = str(first.match.group(2))  # type: ignore[union-attr]
    first.expect(CHOOSE)
    kept = json.loads((Path(home) / "players.json").read_text(encoding="utf-8"))[minimatch.lobby]

    second = spawn("--lobby", minimatch.lobby, *table, "--name", "After", home=home)
    second.expect(r"Playing as After \(renamed from Before; the same player\)\.")
    second.expect(r"Seated at Seat \d of 2 \(1 bots?\) in match (\w+)\.")
    second.expect(CHOOSE)
    second.sendline("q")
    second.expect(pexpect.EOF)
    second.close()
    now = json.loads((Path(home) / "players.json").read_text(encoding="utf-8"))[minimatch.lobby]
    assert (now["player_id"], now["display_name"]) == (kept["player_id"], "After")
    assert now["token"] != kept["token"]

    again = spawn("--lobby", minimatch.lobby, "resume", match_id, home=home)
    again.expect(rf"Back at Seat \d of match {match_id} \(zoo, beginner\)\.")  # the first guest's match is its own
    again.expect(CHOOSE)
    again.sendline("q")
    again.expect(pexpect.EOF)
    again.close()
    first.sendline("q")
    first.expect(pexpect.EOF)
    first.close()
