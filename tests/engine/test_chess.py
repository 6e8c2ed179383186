"""Chess by the FIDE Laws of 2009: the arbiter's claim checker on game records with known outcomes, the game's
end by that edition (no automatic fivefold or 75-move draw), and one-line refusals of what is no position,
game or move.

The six famous games are quoted from their published scores; each replays legally to its known end (the three
mates fall on their known moves), which a misremembered move would very likely break. The fifty-move records are
written for the test: a rook endgame played out without a capture or a pawn move."""
import re

import pytest
from click.testing import CliRunner
from support import REPO_DB

from engine import chess
from engine.calculators import CalcError, describe, run
from service.cli import cli

# Vienna 1872, Hamppe-Meitner, "the immortal draw": the white king cannot escape the bishop's checks.
HAMPPE_MEITNER = ("1. e4 e5 2. Nc3 Bc5 3. Na4 Bxf2+ 4. Kxf2 Qh4+ 5. Ke3 Qf4+ 6. Kd3 d5 7. Kc3 Qxe4 8. Kb3 Na6 "
                  "9. a3 Qxa4+ 10. Kxa4 Nc5+ 11. Kb4 a5+ 12. Kxc5 Ne7 13. Bb5+ Kd8 14. Bc6 b6+ 15. Kb5 Nxc6 "
                  "16. Kxc6 Bb7+ 17. Kb5 Ba6+ 18. Kc6 Bb7+ 19. Kb5 Ba6+ 20. Kc6 Bb7+")
# Airthings Masters 2021, Carlsen-Nakamura: both kings walk out and back, drawn by repetition.
DOUBLE_BONGCLOUD = "[Event \"Airthings Masters\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 " \
                   "4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7 1/2-1/2"
# Paris 1858, Morphy-Duke of Brunswick and Count Isouard, "the opera game": mate on move 17.
OPERA = ("1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 "
         "10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 "
         "17. Rd8# 1-0")
# Paris 1750, Legall-Saint Brie: the queen given up for mate on move 7.
LEGALL = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"
# London 1851, Anderssen-Kieseritzky, "the immortal game": mate on move 23.
IMMORTAL = ("1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 "
            "10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 "
            "18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0")
# New York 1997, Deep Blue-Kasparov, game 6: Black resigned after 19. c4.
DEEP_BLUE = ("1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Nd7 5. Ng5 Ngf6 6. Bd3 e6 7. N1f3 h6 8. Nxe6 Qe7 9. O-O fxe6 "
             "10. Bg6+ Kd8 11. Bf4 b5 12. a4 Bb7 13. Re1 Nd5 14. Bg3 Kc8 15. axb5 cxb5 16. Qd3 Bc6 17. Bf5 exf5 "
             "18. Rxe7 Bxe7 19. c4 1-0")
# King and rook against king: the rook and both kings go back and forth, no capture and no pawn.
ROOK_ENDING = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
ROOK_SHUFFLE = "Ra2 Kd5 Ra1 Ke5"


def upto(record: str, move: str) -> str:
    """The record cut just after the move written `move` ("18... Bb7+", "20. Kc6")."""
    number, san = move.split(" ")
    at = re.search(rf"(?<!\d){number.rstrip('.')}\. ", record).start()
    words = record[at:].split()  # "18.", White's move, Black's move, ...
    keep = 3 if number.endswith("...") else 2
    assert words[keep - 1] == san, (move, words[:3])
    return record[:at] + " ".join(words[:keep])


def shuffle(times: int) -> str:
    return " ".join([ROOK_SHUFFLE] * times)


def test_the_immortal_draw_is_a_correct_threefold_claim_after_20_bb7():
    found = chess.draw_claim(HAMPPE_MEITNER, "threefold")
    assert found["valid"] and found["article"] == "9.2.2" and found["claimant"] == "white"
    assert found["when"] == ["after 16... Bb7+", "after 18... Bb7+", "after 20... Bb7+"]


def test_the_immortal_draw_claimed_one_move_early_is_incorrect():
    found = chess.draw_claim(upto(HAMPPE_MEITNER, "18... Bb7+"), "threefold")
    assert not found["valid"] and found["occurrences"] == 2 and found["consequence_article"] == "9.5.2"


def test_the_immortal_draw_claimed_by_black_with_the_written_move_20_bb7():
    found = chess.draw_claim(upto(HAMPPE_MEITNER, "20. Kc6"), "threefold", move="Bb7+")
    assert found["valid"] and found["article"] == "9.2.1" and found["claimant"] == "black"
    assert found["intended_move"] == "20... Bb7+"


def test_the_immortal_draw_a_written_move_that_repeats_only_twice_is_incorrect():
    found = chess.draw_claim(upto(HAMPPE_MEITNER, "19... Ba6+"), "threefold", move="Kc6")
    assert not found["valid"] and found["occurrences"] == 2
    assert "20. Kc6 must be played" in found["consequence"]


def test_the_double_bongcloud_pgn_is_a_correct_threefold_claim():
    found = chess.draw_claim(DOUBLE_BONGCLOUD, "threefold")
    assert found["valid"] and found["when"] == ["after 2... Ke7", "after 4... Ke7", "after 6... Ke7"]


def test_the_double_bongcloud_kings_home_again_differ_from_the_start_by_castling_rights():
    # After 5... Ke8 the pieces stand as after 1... e5 for the third time, but the kings have moved: no castling.
    found = chess.draw_claim(upto(DOUBLE_BONGCLOUD.split("\n\n")[1], "5... Ke8"), "threefold")
    assert not found["valid"] and found["when"] == ["after 3... Ke8", "after 5... Ke8"]


@pytest.mark.parametrize("record, mate", [(OPERA, "17. Rd8#"), (LEGALL, "7. Nd5#"), (IMMORTAL, "23. Be7#")])
def test_a_claim_after_a_checkmate_is_refused_the_game_having_ended(record, mate):
    assert chess.play(record)["moves"][-1] == mate
    with pytest.raises(ValueError, match=r"already ended by checkmate \(FIDE 5.1.1\)"):
        chess.draw_claim(record, "fifty-moves")


def test_deep_blue_kasparov_game_6_gives_black_no_claim_and_says_since_when():
    threefold = chess.draw_claim(DEEP_BLUE, "threefold")
    assert not threefold["valid"] and threefold["occurrences"] == 1 and threefold["claimant"] == "black"
    fifty = chess.draw_claim(DEEP_BLUE, "fifty-moves")
    assert not fifty["valid"] and fifty["moves_without"] == 0 and fifty["since"] == "after 19. c4"


def test_the_immortal_game_fifty_moves_count_from_the_last_pawn_move():
    found = chess.draw_claim(upto(IMMORTAL, "11. Rg1"), "fifty-moves")
    assert not found["valid"] and found["since"] == "after 10. g4" and found["moves_without"] == 1


def test_fifty_moves_in_a_rook_ending_is_a_correct_claim():
    found = chess.draw_claim(shuffle(25), "fifty-moves", fen=ROOK_ENDING)
    assert found["valid"] and found["article"] == "9.3.2" and found["moves_without"] == 50


def test_fifty_moves_claimed_one_move_early_is_incorrect_unless_the_move_is_written():
    early = shuffle(24) + " Ra2 Kd5 Ra1"
    assert not chess.draw_claim(early, "fifty-moves", fen=ROOK_ENDING)["valid"]
    written = chess.draw_claim(early, "fifty-moves", move="Ke5", fen=ROOK_ENDING)
    assert written["valid"] and written["article"] == "9.3.1"


def test_a_capture_restarts_the_fifty_move_count():
    fen = "8/8/8/4k3/8/8/p7/R3K3 w - - 0 1"  # a black pawn on a2 for the rook to take first
    found = chess.draw_claim("Rxa2 Kd5 Ra1 Ke5 " + shuffle(24), "fifty-moves", fen=fen)
    assert not found["valid"] and found["since"] == "after 1. Rxa2" and found["moves_without"] == 49.5


def test_fivefold_repetition_and_75_moves_end_nothing_in_this_edition():
    record = shuffle(40)  # 80 moves each, the position five times and more
    replayed, _ = chess.replay(record, ROOK_ENDING)
    assert replayed.is_fivefold_repetition() and replayed.is_seventyfive_moves()
    assert replayed.outcome() is not None  # python-chess (a later edition) would have ended the game
    assert chess.automatic_end(record, ROOK_ENDING) == {"ended": False, "plies": 160, "repetitions": 41,
                                                        "halfmove_clock": 160}


def test_en_passant_counts_only_when_a_pawn_can_really_capture():
    # After 1. e4 d5 no white pawn stands beside d5: the two-square advance gives no en passant capture, so the
    # position after 1... d5 is the same as after 3... Nb8 and 5... Nb8 (a FEN written with "d6" would differ).
    record = "1. e4 d5 2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nc6 5. Nb1 Nb8"
    assert chess.draw_claim(record, "threefold")["when"] == ["after 1... d5", "after 3... Nb8", "after 5... Nb8"]
    # With the white pawn on e5 the capture exd6 is possible after 2... d5, and the later positions differ.
    record = "1. e4 Nf6 2. e5 d5 3. Nc3 Nc6 4. Nb1 Nb8 5. Nc3 Nc6 6. Nb1 Nb8"
    assert chess.draw_claim(record, "threefold")["occurrences"] == 2


def test_the_claim_calculator_settles_a_scoresheet_in_one_command():
    result = CliRunner().invoke(cli, ["calc", "chess", "claim", f"pgn={HAMPPE_MEITNER}", "claim=threefold"])
    assert result.exit_code == 0, result.output
    assert "White's threefold claim is correct: the game is drawn (FIDE 9.2.2)" in result.output
    assert "after 16... Bb7+, after 18... Bb7+ and after 20... Bb7+" in result.output


@pytest.mark.parametrize("calc, params, says", [
    ("claim", {"pgn": "1. e4 e5 2. Ke3", "claim": "threefold"}, "parameter 'pgn': move 2. Ke3 is illegal here"),
    ("claim", {"pgn": "1. e4 e5 2. Qh9", "claim": "threefold"}, "parameter 'pgn': move 2. Qh9 is not a move"),
    ("claim", {"pgn": "1. e4", "claim": "threefold", "fen": "8/8/8 w - - 0 1"}, "parameter 'fen': FEN"),
    ("position", {"fen": "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"}, "the side not to move is in check"),
    ("position", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "White has no king; Black has no king"),
    ("move", {"fen": chess.START, "move": "Zz9"}, "parameter 'move': move 'Zz9' is not a move"),
])
def test_bad_input_is_refused_in_one_line_naming_what_is_wrong(calc, params, says):
    with pytest.raises(CalcError) as refused:
        run("chess", calc, params)
    assert says in str(refused.value) and "\n" not in str(refused.value)


def test_the_move_calculator_names_the_article_that_forbids_a_move():
    assert run("chess", "move", {"fen": chess.START, "move": "Bc4"})["answer"] == \
        "Bc4 is illegal: the bishop may not move over the pieces between it and c4 (FIDE 3.5)."
    castle = run("chess", "move", {"fen": "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "move": "O-O"})
    assert castle["result"]["article"] == "3.8.3.1" and "f1, is attacked" in castle["answer"]


def test_the_position_calculator_says_the_result_and_the_article():
    assert run("chess", "position", {"fen": "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"})["answer"] == \
        "Checkmate: White has won (FIDE 5.1.1)."
    assert run("chess", "position", {"fen": "k7/8/1Q6/8/8/8/8/7K b - - 0 1"})["answer"] == \
        "Stalemate: the game is drawn (FIDE 5.2.1)."
    assert re.search(r"if white's flag falls: a draw", run("chess", "position", {
        "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})["answer"])


def test_every_article_cited_has_its_ruling():
    assert set(chess.ARTICLE_RULING) >= {"3.8.2.1", "9.2.2", "6.9"}
    assert chess.ruling("9.2") == "chess/fide-laws-of-chess/competition/article-9/9.2"


def test_rook_then_king_when_the_rook_cannot_move_the_king_must_without_castling_that_side():
    found = chess.touched("r3k2r/8/8/8/8/8/6PP/R3K1NR w KQkq - 0 1", ["h1", "e1"])
    assert found["article"] == "4.4.2" and "O-O" not in found["moves"] and "Kf1" in found["moves"]


@pytest.mark.parametrize("record", ["(" * 6000 + ")" * 5999, "{" * 11999, "( " * 4000, "1." * 6000])
def test_a_hostile_record_of_the_largest_size_is_read_in_one_pass(record):
    import time
    started = time.perf_counter()
    try:
        chess.replay(record)
    except ValueError:
        pass
    assert time.perf_counter() - started < 0.2


# A white king in check from the rook on h1: no pass gets him out of it.
IN_CHECK = "4k3/8/8/8/8/8/8/4K2r w - - 0 1"


@pytest.mark.parametrize("fen", [chess.START, IN_CHECK])
@pytest.mark.parametrize("written", ["--", "0000", "Z0", "@@@@"])
def test_a_null_move_is_refused_naming_it_even_in_check(fen, written):
    with pytest.raises(CalcError) as refused:
        run("chess", "move", {"fen": fen, "move": written})
    assert refused.value.param == "move"
    assert f"move {written!r} is a pass (a null move), which the Laws do not have" in str(refused.value)
    assert "FIDE 1.1" in str(refused.value)


def test_a_piece_dropped_onto_the_board_is_refused_naming_it():
    with pytest.raises(CalcError, match=r"move 'N@f3' puts a piece onto the board") as refused:
        run("chess", "move", {"fen": chess.START, "move": "N@f3"})
    assert refused.value.param == "move"


def test_a_claim_over_a_record_with_passes_names_the_first_pass():
    result = CliRunner().invoke(cli, ["calc", "chess", "claim", "pgn=1. Nf3 -- 2. Ng1 -- 3. Nf3 -- 4. Ng1 --",
                                      "claim=threefold"])
    assert result.exit_code == 2 and "correct" not in result.output
    assert "parameter 'pgn': move 1... -- is a pass (a null move)" in result.output


def test_a_claim_with_a_pass_as_the_written_move_is_refused_naming_it():
    with pytest.raises(CalcError, match=r"parameter 'move': move '0000' is a pass") as refused:
        run("chess", "claim", {"pgn": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "claim": "threefold",
                               "move": "0000"})
    assert refused.value.param == "move"


@pytest.mark.parametrize("counters, says", [
    ("100000000000000000000 1", ("the half-move clock (its fifth field), 100000000000000000000, counts more "
                                 "half-moves than the game has had by move 1 with White to move (0)")),
    ("101 50", ("the half-move clock (its fifth field), 101, counts more half-moves than the game has had by "
                "move 50 with White to move (98)")),
    ("0 0", "the move number (its sixth field) is 0; a game's moves are numbered from 1"),
    (f"0 {chess.MAX_MOVE_NUMBER + 1}", (f"the move number (its sixth field), {chess.MAX_MOVE_NUMBER + 1}, is more "
                                        "than any game reaches")),
])
def test_impossible_counters_are_refused_naming_the_field(counters, says):
    fen = f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {counters}"
    for calc, params in [("position", {"fen": fen}), ("move", {"fen": fen, "move": "e4"}),
                         ("claim", {"pgn": "", "claim": "fifty-moves", "fen": fen})]:
        with pytest.raises(CalcError) as refused:
            run("chess", calc, params)
        assert refused.value.param == "fen" and says in str(refused.value), calc


def test_a_clock_after_a_two_square_pawn_advance_is_refused():
    with pytest.raises(CalcError, match=r"en passant square says the last move was a pawn's"):
        run("chess", "position", {"fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 2"})


def test_the_counters_the_move_number_allows_are_taken():
    # Black to move at move 50: 99 half-moves played, all of them without a pawn move or capture at most.
    assert chess.board("8/8/8/4k3/8/8/8/R3K3 b - - 99 50").halfmove_clock == 99
    assert chess.board(f"8/8/8/4k3/8/8/8/R3K3 w - - 0 {chess.MAX_MOVE_NUMBER}")


def test_a_fifty_move_count_begun_before_the_position_given_says_so():
    found = chess.draw_claim("Ra2 Kd5", "fifty-moves", fen="8/8/8/4k3/8/8/8/R3K3 w - - 98 60")
    assert found["valid"] and found["since"] == "before the position given (its half-move clock was 98)"


@pytest.mark.parametrize("calc, params, decided_by", [
    ("claim", {"pgn": HAMPPE_MEITNER, "claim": "threefold"}, ["9.2", "9.2.2", "9.5.1"]),
    ("claim", {"pgn": upto(HAMPPE_MEITNER, "19... Ba6+"), "claim": "threefold", "move": "Kc6"},
     ["9.2", "9.2.1", "9.5.2"]),
    ("claim", {"pgn": DEEP_BLUE, "claim": "fifty-moves"}, ["9.3", "9.3.2", "9.5.2"]),
    ("position", {"fen": "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"}, ["5.1.1"]),
    ("position", {"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, ["5.2.2", "9.6"]),
    ("position", {"fen": chess.START}, ["6.9"]),
    ("move", {"fen": chess.START, "move": "Nf3"}, ["3.6", "4.6"]),
    ("move", {"fen": chess.START, "move": "e4"}, ["3.7.2", "4.6"]),
    ("move", {"fen": chess.START, "move": "Bc4"}, ["3.5"]),
])
def test_an_answer_is_decided_by_only_the_articles_that_decide_it(calc, params, decided_by):
    assert run("chess", calc, params)["rulings"] == [chess.ruling(article) for article in decided_by]


def test_the_cli_names_each_deciding_article_by_its_number():
    result = CliRunner().invoke(cli, ["calc", "chess", "claim", f"pgn={HAMPPE_MEITNER}", "claim=threefold",
                                      "--db", str(REPO_DB)])
    assert result.output.splitlines()[-1] == "Decided by: FIDE 9.2, FIDE 9.2.2, FIDE 9.5.1"


def test_the_pgn_and_fen_fields_say_in_one_line_what_the_notations_are():
    params = {param: p for calc in describe()["chess"].values() for param, p in calc["params"].items()}
    assert (params["pgn"]["label"], params["fen"]["label"]) == ("PGN", "FEN")
    assert "PGN (Portable Game Notation)" in params["pgn"]["help"]
    assert "FEN (Forsyth-Edwards Notation)" in params["fen"]["help"]
    assert all(len(p["help"]) <= 100 and "\n" not in p["help"] for p in params.values())
