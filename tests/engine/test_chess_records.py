"""Every chess calculator's ruling on a generated game record agrees with python-chess's legality under the 2008
Laws' claim rules: a record is played from a position whose counters may be impossible, by legal moves, moves
back (so that positions repeat), passes and illegal moves; each calculator then answers, or refuses naming the
input at fault and the first bad move.

The oracle is python-chess itself (its `legal_moves`, `is_repetition`, `halfmove_clock`, game ends) and the
arithmetic of the counters: a FEN's half-move clock counts at most the half-moves played by its move number."""
import chess as pychess
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import chess
from engine.calculators import CalcError, run

PASSES = ["--", "0000", "Z0", "@@@@"]
POSITIONS = [  # piece placement, side to move, castling and en passant: the counters are drawn apart
    pychess.STARTING_FEN.rsplit(" ", 2)[0],
    "8/8/8/4k3/8/8/8/R3K3 w - -",                                      # a rook ending, to shuffle in
    "4k3/8/8/8/8/8/8/4K2r w - -",                                      # White in check
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq -",       # Qh4 mates
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3",        # ...dxe3 e.p. possible
    "4k3/8/8/8/8/8/8/4KN2 w - -",                                      # a dead position
    "k7/8/1Q6/8/8/8/8/7K b - -",                                       # stalemate
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -",                                # castling either side
]
# Steps back are three times as likely as other moves: runs of them repeat positions, as a threefold claim needs.
GOOD = st.tuples(st.sampled_from(["legal"] + ["back"] * 3), st.integers(0, 255))  # a legal move: the nth
BAD = st.one_of(st.tuples(st.just("pass"), st.sampled_from(PASSES)),
                st.tuples(st.just("illegal"), st.integers(0, 63), st.integers(0, 63)))


@st.composite
def games(draw) -> tuple[str, list[tuple], tuple]:
    """A starting FEN (its counters possible three times in four, near the fifty-move count now and then), the
    steps of a record (legal moves and moves back, one pass or illegal move among them every other time) and
    the step a claimant writes or a player makes next."""
    placement = draw(st.sampled_from(POSITIONS))
    if draw(st.integers(0, 3)):
        number = draw(st.one_of(st.integers(1, 10), st.integers(50, 80)))
        most = 2 * (number - 1) + (placement.split()[1] == "b") if placement.endswith("-") else 0
        clock = draw(st.one_of(st.integers(0, most), st.integers(max(0, most - 6), most)))
    else:
        number, clock = draw(st.sampled_from([(0, 0), (1, 1), (50, 99), (chess.MAX_MOVE_NUMBER + 1, 0),
                                              (10 ** 20, 0), (1, 10 ** 20)]))
    length = draw(st.integers(0, 30))  # drawn evenly: hypothesis's lists are mostly short
    steps = draw(st.lists(GOOD, min_size=length, max_size=length))
    if draw(st.booleans()):
        steps.insert(draw(st.integers(0, len(steps))), draw(BAD))
    return f"{placement} {clock} {number}", steps, draw(st.one_of(GOOD, BAD))


def counters_possible(fen: str) -> bool:
    """A FEN's half-move clock and move number as a game can have them."""
    side, ep, clock, number = fen.split()[1], fen.split()[3], *map(int, fen.split()[4:6])
    return (1 <= number <= chess.MAX_MOVE_NUMBER and clock <= 2 * (number - 1) + (side == "b")
            and (ep == "-" or clock == 0))


def over(board: pychess.Board) -> bool:
    """The game ended by itself in this edition: checkmate, stalemate or a dead position."""
    return board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()


def token(board: pychess.Board, step: tuple) -> tuple[str, pychess.Move | None]:
    """What a step writes in this position, and the legal move python-chess reads it as (None: a pass or an
    illegal move). A step back that cannot be made is the first legal move that could be taken back; a legal
    move where there is none (the game is over) a king's move."""
    kind, *args = step
    if kind == "pass":
        return args[0], None
    if kind == "illegal":  # squares as written: e1h1 is castling to python-chess, as to the calculators
        written = pychess.Move(*args).uci()  # a1a1 is written 0000, a pass
        try:
            move = board.parse_uci(written)
        except ValueError:
            return written, None
        return (board.san(move), move) if move else (written, None)
    legal = sorted(board.legal_moves, key=lambda m: m.uci())
    if kind == "back":  # the side to move takes its last move back, else makes a move it could take back
        last = board.move_stack[-2] if len(board.move_stack) >= 2 else None
        back = last and pychess.Move(last.to_square, last.from_square)
        legal = [back] if back in legal else [m for m in legal if not board.is_zeroing(m)] or legal
    if not legal:
        return "Kd2", None
    move = legal[args[0] % len(legal)] if kind == "legal" else legal[0]
    return board.san(move), move


def name(board: pychess.Board) -> str:
    """How a scoresheet numbers the next move ("12.", "12...")."""
    return f"{board.fullmove_number}{'.' if board.turn == pychess.WHITE else '...'}"


def record_of(fen: str, steps: list[tuple]) -> tuple[list[str], pychess.Board, str | None]:
    """The record the steps write from `fen`: its moves, the position after its legal part and the first bad
    move as the refusal names it ("3... --"), None when every move is legal."""
    board, written = pychess.Board(fen), []
    for step in steps:
        text, move = token(board, step)
        written.append(text)
        if over(board) or move is None:
            return written, board, f"move {name(board)} {text}"
        board.push(move)
    return written, board, None


def ruling(calc: str, params: dict) -> dict | CalcError:
    """The calculator's answer, or its refusal."""
    try:
        return run("chess", calc, params)
    except CalcError as exc:
        return exc


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.sampled_from(["threefold", "fifty-moves"]))
def test_every_ruling_on_a_generated_record_agrees_with_python_chess(game, claim):
    fen, steps, last = game
    if not counters_possible(fen):
        event("impossible counters")
        for calc, params in [("position", {"fen": fen}), ("move", {"fen": fen, "move": "e4"}),
                             ("claim", {"pgn": "e4", "claim": claim, "fen": fen})]:
            answer = ruling(calc, params)
            assert isinstance(answer, CalcError) and answer.param == "fen", (calc, fen)
        return
    written, board, bad = record_of(fen, steps)
    answer = ruling("claim", {"pgn": " ".join(written), "claim": claim, "fen": fen})
    if bad is not None:
        event("a pass, an illegal move or a move after the end")
        assert isinstance(answer, CalcError) and answer.param == "pgn" and bad in str(answer), (written, answer)
        return
    if over(board):
        event("a claim after the end")
        assert isinstance(answer, CalcError) and "already ended" in str(answer)
        return
    assert not isinstance(answer, CalcError), (fen, written, answer)
    valid = board.is_repetition(3) if claim == "threefold" else board.halfmove_clock >= 100
    assert answer["result"]["valid"] == valid, written
    event(f"{claim} claim: {'correct' if valid else 'incorrect'}")

    intended, move = token(board, last)
    params = {"pgn": " ".join(written), "claim": claim, "fen": fen, "move": intended}
    with_move = ruling("claim", params)
    after = board.copy()
    if move is None:
        assert isinstance(with_move, CalcError) and with_move.param == "move", (written, intended, with_move)
    else:
        after.push(move)
        valid = after.is_repetition(3) if claim == "threefold" else after.halfmove_clock >= 100
        assert not isinstance(with_move, CalcError), (fen, written, intended, with_move)
        result = with_move["result"]
        event(f"{claim} claim with a written move: {'correct' if valid else 'incorrect'}")
        assert result["valid"] == valid, (written, intended)
        assert with_move["rulings"] == [chess.ruling(a) for a in (
            result["article"].rsplit(".", 1)[0], result["article"], "9.5.1" if valid else "9.5.2")]

    if counters_possible(board.fen()):
        position = run("chess", "position", {"fen": board.fen()})["result"]
        assert position["status"] == "play on" and position["legal_moves"] == board.legal_moves.count()
        ruled = ruling("move", {"fen": board.fen(), "move": intended})
        if move is None:
            assert isinstance(ruled, CalcError) or not ruled["result"]["legal"], (board.fen(), intended)
            if intended in PASSES:
                assert isinstance(ruled, CalcError) and ruled.param == "move"
        else:
            assert ruled["result"]["legal"] and ruled["result"]["fen"] == after.fen(), (board.fen(), intended)


@pytest.mark.parametrize("fen", [
    "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", "k7/8/1Q6/8/8/8/8/7K b - - 0 1", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1"])
def test_the_position_calculator_ends_a_game_where_python_chess_does(fen):
    board = pychess.Board(fen)
    status = run("chess", "position", {"fen": fen})["result"]["status"]
    assert status == ("checkmate" if board.is_checkmate() else "stalemate" if board.is_stalemate()
                      else "dead position")
