"""Chess, by the FIDE Laws of Chess adopted at Dresden in 2008 and in force from 1 July 2009 (the edition in
sources/): moves, check, the end of a game, and the arbiter's questions (draw claims, flag fall, touch-move).

Move generation, attack maps and position keys come from python-chess (`chess`); what ends a game and what a
claim needs follow the Laws of this edition, not python-chess's defaults: a game ends by itself only at
checkmate (5.1.1), stalemate (5.2.1) or a dead position (5.2.2, 9.6). Fivefold repetition and seventy-five
moves, which python-chess's `outcome()` treats as automatic draws (a later edition's rules), end nothing here;
threefold repetition (9.2) and fifty moves (9.3) draw only upon a correct claim by the player having the move.

Every function is pure: a position as FEN and moves as SAN or UCI text in, plain data out. Articles are named
as the document numbers them, with its lettered points as numbers ("3.7.4" is its 3.7.d), as the rulings' refs
are ("FIDE 3.7.4").
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Annotated, Literal

import chess

from engine.calculators import CalcError, Calculator, Param, and_list

GAME = "chess"

START = chess.STARTING_FEN
MAX_FEN = 100         # characters of a FEN: 64 squares' worth of ranks, side, castling, en passant, two counters
MAX_GAME = 12_000     # characters of a game's record (PGN or moves): a 300-move game with comments fits
MAX_PLIES = 1_200     # half-moves of a game's record; the longest games ever played have under 600
MAX_MOVE = 12         # characters of one move ("exd6e.p.", "e7e8=Q+", "0-0-0")
MAX_MOVE_NUMBER = 6_000  # a FEN's move number: a game lasts 5,949 moves at most when every fifty-move draw is claimed
COLOURS = {chess.WHITE: "white", chess.BLACK: "black"}
NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop", chess.ROOK: "rook",
         chess.QUEEN: "queen", chess.KING: "king"}
RULING = "chess/fide-laws-of-chess/"
ARTICLE_RULING = {  # the ruling that states each article this module cites
    **{a: f"basic-rules-of-play/article-{a[0]}/{a}" for a in (
        "1.1", "1.2", "1.3", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7.1", "3.7.2", "3.7.3", "3.7.4",
        "3.7.5", "3.8.1", "3.8.2.1", "3.8.2.2", "3.8.3.1", "3.8.3.2", "3.8.4", "4.3.1", "4.3.2", "4.3.3",
        "4.4.1", "4.4.2", "4.4.3", "4.5", "4.6", "5.1.1", "5.2.1", "5.2.2", "5.2.4", "5.2.5")},
    **{a: f"competition/article-{a.split('.')[0]}/{a}" for a in (
        "6.9", "9.2", "9.2.1", "9.2.2", "9.3", "9.3.1", "9.3.2", "9.5.1", "9.5.2", "9.6")},
}


class Refused(ValueError):
    """An input that is no position, game or move: the message says what is wrong, `param` which calculator
    input it is ("fen", "pgn", "move")."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.param = param


def ruling(article: str) -> str:
    """The id of the ruling that states an article ("3.8.4" → its ruling in the Laws' source)."""
    return RULING + ARTICLE_RULING[article]


# -- reading positions and games ------------------------------------------------------------------------------

_STATUS = [(chess.STATUS_NO_WHITE_KING, "White has no king"), (chess.STATUS_NO_BLACK_KING, "Black has no king"),
           (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
           (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
           (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
           (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or last rank"),
           (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
           (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
           (chess.STATUS_BAD_CASTLING_RIGHTS, "its castling rights name a king or rook not on its original square"),
           (chess.STATUS_INVALID_EP_SQUARE, "its en passant square follows no two-square pawn advance"),
           (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
           (chess.STATUS_TOO_MANY_CHECKERS, "the king is in check from more pieces than a move can give"),
           (chess.STATUS_IMPOSSIBLE_CHECK, "the king is in a check no move can have given")]


def board(fen: str = START) -> chess.Board:
    """The position a FEN describes; ValueError naming what is wrong with it (in one line): the position itself,
    or a counter the game cannot have reached (`_counters_wrong`)."""
    fen = " ".join(fen.split())
    if len(fen) > MAX_FEN:
        raise Refused(f"FEN: {len(fen)} characters, more than a position takes ({MAX_FEN})", "fen")
    try:
        position = chess.Board(fen)
    except ValueError as exc:
        raise Refused(f"FEN {fen!r}: {exc}", "fen") from None
    status = position.status()
    wrong = [words for flag, words in _STATUS if status & flag]
    if wrong:
        raise Refused(f"FEN {fen!r} is no position of a game: {'; '.join(wrong)}", "fen")
    wrong = _counters_wrong(fen.split(" ")[4:6], position)
    if wrong:
        raise Refused(f"FEN {fen!r}: {wrong}", "fen")
    return position


def _counters_wrong(written: list[str], position: chess.Board) -> str:
    """What is impossible about a FEN's counters (`written`: its half-move clock and move number as written, when
    given), "" when nothing: a move number is from 1 to MAX_MOVE_NUMBER, and the half-move clock counts no more
    half-moves than the game has had by then (none after a two-square pawn advance, which an en passant square
    says was the last move)."""
    number, clock = position.fullmove_number, position.halfmove_clock
    if len(written) == 2 and int(written[1]) == 0:  # python-chess reads a move number of 0 as 1
        return "the move number (its sixth field) is 0; a game's moves are numbered from 1"
    if number > MAX_MOVE_NUMBER:
        return f"the move number (its sixth field), {number}, is more than any game reaches ({MAX_MOVE_NUMBER})"
    played = 2 * (number - 1) + (position.turn == chess.BLACK)
    if clock > played:
        return (f"the half-move clock (its fifth field), {clock}, counts more half-moves than the game has had "
                f"by move {number} with {COLOURS[position.turn].capitalize()} to move ({played})")
    if position.ep_square is not None and clock:
        return (f"the half-move clock (its fifth field) is {clock}, but the en passant square says the last move "
                "was a pawn's, which sets it to 0")
    return ""


_CASTLES = {"O-O": "O-O", "0-0": "O-O", "O-O-O": "O-O-O", "0-0-0": "O-O-O"}


def _move_text(text: str) -> str:
    """A move as written on a scoresheet, normalised: castling with O, no check marks or 'e.p.'."""
    text = re.sub(r"(e\.p\.|[+#!?]+)$", "", text.strip())
    return _CASTLES.get(text, text)


class NoMove(ValueError):
    """What python-chess reads as a move but the Laws have none of: a pass (a null move: "--", "0000", "Z0") or a
    piece dropped onto the board ("N@f3")."""


def _real(move: chess.Move, text: str) -> chess.Move:
    """`move`, read from `text`, when it is a move of a piece; NoMove naming it when it is a pass or a drop."""
    if not move:
        raise NoMove(f"move {text!r} is a pass (a null move), which the Laws do not have: the players move their "
                     "pieces alternately (FIDE 1.1)")
    if move.drop is not None:
        raise NoMove(f"move {text!r} puts a piece onto the board, which the Laws do not have: a move takes a piece "
                     "from one square to another (FIDE 3.1)")
    return move


def parse_move(position: chess.Board, text: str) -> chess.Move:
    """A legal move written in SAN ("Nf3", "exd6", "e8=Q", "O-O") or as squares ("g1f3", "e7e8q"); ValueError
    naming the move and why it cannot be played (NoMove: a pass or a drop, which no position has)."""
    if len(text) > MAX_MOVE:
        raise ValueError(f"move {text[:MAX_MOVE]!r}… is longer than any move ({MAX_MOVE} characters)")
    written = _move_text(text)
    try:
        found = position.parse_san(written)
    except chess.AmbiguousMoveError:
        raise ValueError(f"move {text!r} is ambiguous: more than one piece can make it") from None
    except ValueError as exc:  # an illegal SAN move is explained below when it names its squares
        illegal = isinstance(exc, chess.IllegalMoveError)
    else:
        return _real(found, text)  # python-chess's SAN has passes, which it plays without asking the position
    try:
        move = chess.Move.from_uci(written.lower().replace("-", ""))
    except ValueError:
        candidate = _san_candidate(position, written) if illegal else None
        if candidate is not None:
            why = explain(position, candidate)
            raise ValueError(f"move {text!r} is illegal here: {why['reason']} (FIDE {why['article']})") from None
        if illegal:
            raise ValueError(f"move {text!r} is illegal here: {COLOURS[position.turn].capitalize()} has no piece "
                             "that may make it") from None
        raise ValueError(f"move {text!r} is not a move in algebraic notation (Nf3, exd6, O-O, e7e8q)") from None
    if _real(move, text) not in position.legal_moves:
        why = explain(position, move)
        raise ValueError(f"move {text!r} is illegal here: {why['reason']} (FIDE {why['article']})")
    return move


def _tokens(record: str) -> list[str]:
    """The moves of a game's record: PGN (tags, comments, variations, move numbers, NAGs and result dropped) or
    plain moves ("e4 e5 Nf3")."""
    text = re.sub(r"^\s*\[.*?\]\s*$", " ", record, flags=re.M)          # tag pairs
    text = _outside_comments_and_variations(text)
    text = re.sub(r"\$\d+", " ", text)                                  # NAGs
    text = re.sub(r"\b\d+\s*\.(\s*\.\.)?|\.\.\.", " ", text)            # move numbers
    return [t for t in text.split() if t not in ("1-0", "0-1", "1/2-1/2", "½-½", "*")]


def _outside_comments_and_variations(text: str) -> str:
    """The text outside {comments}, ;comments and (variations, nested), in one pass (no regex backtracking)."""
    kept, depth, closing = [], 0, ""
    for ch in text:
        if closing:  # inside a comment, up to its end
            closing = "" if ch == closing else closing
        elif ch in "{;":
            closing = "}" if ch == "{" else "\n"
        elif ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            kept.append(ch)
            continue
        kept.append(" ")
    return "".join(kept)


def _number(ply: int, start: chess.Board) -> str:
    """How a scoresheet names the ply-th half-move of a game from `start` ("12.", "12...")."""
    index = ply + (0 if start.turn == chess.WHITE else 1)
    move_number = start.fullmove_number + index // 2
    return f"{move_number}." if index % 2 == 0 else f"{move_number}..."


def _why(message: str, token: str) -> str:
    """A move's refusal without the move it names ("is illegal here: ..."), to follow the move's number."""
    return message.split(" ", 2)[2] if message.startswith("move ") and len(message.split(" ", 2)) == 3 and \
        token[:MAX_MOVE] in message else message


def replay(record: str, fen: str = START) -> tuple[chess.Board, list[str]]:
    """The game a record describes, played from `fen` by the Laws: the final position (with its moves) and each
    move as the scoresheet names it ("12. Nf3"). ValueError naming the first move that cannot be played, or
    played after the game had ended (checkmate, stalemate, dead position)."""
    if len(record) > MAX_GAME:
        raise Refused(f"game: {len(record)} characters, more than a record takes ({MAX_GAME})", "pgn")
    start = board(fen)
    position = start.copy(stack=False)
    tokens = _tokens(record)
    if len(tokens) > MAX_PLIES:
        raise Refused(f"game: {len(tokens)} moves, more than a game has ({MAX_PLIES} half-moves)", "pgn")
    named = []
    for ply, token in enumerate(tokens):
        where = f"{_number(ply, start)} {token if len(token) <= MAX_MOVE else token[:MAX_MOVE] + '…'}"
        ended = ended_by(position)
        if ended:
            raise Refused(f"move {where}: the game had already ended by {ended['end']} (FIDE {ended['article']})",
                          "pgn")
        try:
            move = parse_move(position, token)
        except ValueError as exc:
            raise Refused(f"move {where} {_why(str(exc), token)}", "pgn") from None
        named.append(f"{_number(ply, start)} {position.san(move)}")
        position.push(move)
    return position, named


# -- Articles 1 to 3: the board and the moves -----------------------------------------------------------------

def square_colour(square: str) -> str:
    """The colour of a square (2.1: the near right-hand corner, h1, is white): "light" or "dark"."""
    index = chess.parse_square(square.lower())
    return "light" if chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[index] else "dark"


def initial_position() -> dict:
    """The initial position (2.2, 2.3): its FEN and how many pieces of each kind each side has."""
    position = chess.Board()
    return {"fen": position.fen(),
            "pieces": {COLOURS[c]: {NAMES[t]: len(position.pieces(t, c)) for t in NAMES} for c in COLOURS}}


def piece_at(square: str, fen: str = START) -> str | None:
    """The piece on a square ("white rook"), None when it is empty."""
    piece = board(fen).piece_at(chess.parse_square(square.lower()))
    return f"{COLOURS[piece.color]} {NAMES[piece.piece_type]}" if piece else None


def destinations(fen: str, square: str) -> list[str]:
    """The squares the piece on `square` may legally move to (promotions counted once), sorted."""
    position = board(fen)
    origin = chess.parse_square(square.lower())
    return sorted({chess.square_name(m.to_square) for m in position.legal_moves if m.from_square == origin})


def attacks(fen: str, square: str) -> list[str]:
    """The squares the piece on `square` attacks (3.1: even when it may not move there, its king being exposed)."""
    return sorted(chess.square_name(s) for s in board(fen).attacks(chess.parse_square(square.lower())))


def play(moves: str, fen: str = START) -> dict:
    """A record played out: the position reached (FEN), who has the move and each move as written."""
    position, named = replay(moves, fen)
    return {"fen": position.fen(), "to_move": COLOURS[position.turn], "moves": named}


def castling_rights(moves: str, fen: str = START) -> dict:
    """Which castling rights each side keeps after a record (3.8.2: lost once the king or that rook has moved,
    for good, even when it moves back)."""
    position, _ = replay(moves, fen)
    return {COLOURS[c]: {"kingside": position.has_kingside_castling_rights(c),
                         "queenside": position.has_queenside_castling_rights(c)} for c in COLOURS}


def _line_clear(position: chess.Board, origin: int, target: int) -> bool:
    return not chess.between(origin, target) & position.occupied


def _castling(position: chess.Board, move: chess.Move) -> tuple[str, str]:
    """Why castling (a king's two-square move along its first rank) is illegal: (article, reason)."""
    colour, kingside = position.turn, chess.square_file(move.to_square) > chess.square_file(move.from_square)
    side = "kingside" if kingside else "queenside"
    rights = position.has_kingside_castling_rights if kingside else position.has_queenside_castling_rights
    if not rights(colour):
        if not position.has_castling_rights(colour):
            return "3.8.2.1", f"{COLOURS[colour].capitalize()} has lost the right to castle: the king has moved"
        return "3.8.2.2", f"{COLOURS[colour].capitalize()} has lost the right to castle {side}: that rook has moved"
    rook = (chess.H1 if kingside else chess.A1) if colour == chess.WHITE else (chess.H8 if kingside else chess.A8)
    if not _line_clear(position, move.from_square, rook):
        return "3.8.3.2", f"castling {side} is prevented: a piece stands between the king and the rook"
    crossed = (move.from_square + move.to_square) // 2
    for square, what in ((move.from_square, "the square the king stands on"), (crossed, "the square it must cross"),
                         (move.to_square, "the square it is to occupy")):
        if position.is_attacked_by(not colour, square):
            return "3.8.3.1", (f"castling {side} is prevented: {what}, {chess.square_name(square)}, is attacked "
                               "by the opponent")
    return "3.8.1", "castling is not possible here"


def _geometry(position: chess.Board, move: chess.Move, piece: chess.Piece) -> tuple[str, str]:
    """Why a move that is not even pseudo-legal breaks the piece's way of moving: (article, reason)."""
    origin, target = move.from_square, move.to_square
    files = chess.square_file(target) - chess.square_file(origin)
    ranks = chess.square_rank(target) - chess.square_rank(origin)
    name, to = NAMES[piece.piece_type], chess.square_name(target)
    straight, diagonal = files == 0 or ranks == 0, abs(files) == abs(ranks)
    if piece.piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN):
        along = {chess.BISHOP: diagonal, chess.ROOK: straight, chess.QUEEN: straight or diagonal}[piece.piece_type]
        if not along:
            lines = {chess.BISHOP: "a diagonal", chess.ROOK: "its file or rank",
                     chess.QUEEN: "its file, rank or a diagonal"}[piece.piece_type]
            article = {chess.BISHOP: "3.2", chess.ROOK: "3.3", chess.QUEEN: "3.4"}[piece.piece_type]
            return article, f"the {name} moves only along {lines}, and {to} is not on one"
        return "3.5", f"the {name} may not move over the pieces between it and {to}"
    if piece.piece_type == chess.KNIGHT:
        return "3.6", f"the knight moves only to the nearest squares not on its rank, file or diagonal; {to} is not one"
    if piece.piece_type == chess.KING:
        return "3.8.1", f"the king moves only to an adjoining square (or castles); {to} is not one"
    forward = 1 if piece.color == chess.WHITE else -1
    last = 7 if piece.color == chess.WHITE else 0
    if chess.square_rank(target) == last and move.promotion is None and abs(files) <= 1 and ranks == forward:
        return "3.7.5", "a pawn reaching the last rank must be exchanged for a queen, rook, bishop or knight"
    if move.promotion is not None and (chess.square_rank(target) != last or move.promotion in (chess.KING, chess.PAWN)):
        return "3.7.5", "a pawn is exchanged only on reaching the last rank, and only for a queen, rook, bishop or knight"
    if files == 0 and ranks == forward:
        return "3.7.1", f"a pawn moves forward only to an unoccupied square, and {to} is occupied"
    if files == 0 and ranks == 2 * forward:
        first = chess.square_rank(origin) == (1 if piece.color == chess.WHITE else 6)
        if not first:
            return "3.7.2", "a pawn may advance two squares only on its first move"
        return "3.7.2", "a pawn may advance two squares only when both squares are unoccupied"
    if abs(files) == 1 and ranks == forward:
        beside = chess.square(chess.square_file(target), chess.square_rank(origin))
        passed = position.piece_at(beside)
        if passed == chess.Piece(chess.PAWN, not piece.color):
            return "3.7.4", ("a pawn may be captured en passant only on the move following its two-square advance, "
                             "by a pawn attacking the square it crossed")
        return "3.7.3", f"a pawn moves diagonally only to capture, and there is no opponent's piece on {to}"
    return "3.7.1", "a pawn moves only forward: one square, two on its first move, or diagonally to capture"


_MOVES_BY = {chess.BISHOP: "3.2", chess.ROOK: "3.3", chess.QUEEN: "3.4", chess.KNIGHT: "3.6", chess.KING: "3.8.1"}


def movement(position: chess.Board, san: str) -> str:
    """The article by which the legal move `san` moves its piece: the piece's own (3.2 to 3.8.1, castling
    being the king's), a pawn's by the kind of pawn move (3.7.1 to 3.7.5)."""
    move = position.parse_san(san)
    piece = position.piece_type_at(move.from_square)
    if piece != chess.PAWN:
        return _MOVES_BY[piece]
    if move.promotion:
        return "3.7.5"
    if position.is_en_passant(move):
        return "3.7.4"
    if position.is_capture(move):
        return "3.7.3"
    return "3.7.2" if abs(move.to_square - move.from_square) == 16 else "3.7.1"


def explain(position: chess.Board, move: chess.Move) -> dict:
    """Whether a move is legal in a position and, if not, the article that forbids it: {"legal", "article",
    "reason"}."""
    if move in position.legal_moves:
        return {"legal": True, "article": "4.6", "reason": "all the requirements of Article 3 are fulfilled"}
    piece = position.piece_at(move.from_square)
    origin = chess.square_name(move.from_square)
    home = chess.E1 if position.turn == chess.WHITE else chess.E8
    if piece is None and move.from_square == home and move.to_square in (home - 2, home + 2):  # castling, king gone
        return {"legal": False, "article": "3.8.2.1",
                "reason": f"{COLOURS[position.turn].capitalize()} has lost the right to castle: the king has moved"}
    if piece is None:
        return {"legal": False, "article": "1.1", "reason": f"there is no piece on {origin} to move"}
    if piece.color != position.turn:
        return {"legal": False, "article": "1.1",
                "reason": f"the players move alternately, and {COLOURS[position.turn].capitalize()} has the move"}
    target = position.piece_at(move.to_square)
    if target is not None and target.color == piece.color:
        return {"legal": False, "article": "3.1",
                "reason": f"{chess.square_name(move.to_square)} is occupied by a piece of the same colour"}
    if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2 \
            and chess.square_rank(move.to_square) == chess.square_rank(move.from_square):
        article, reason = _castling(position, move)
        return {"legal": False, "article": article, "reason": reason}
    if move in position.pseudo_legal_moves:
        if piece.piece_type == chess.KING:
            return {"legal": False, "article": "3.8.1",
                    "reason": f"the king may not move to {chess.square_name(move.to_square)}, which the opponent attacks"}
        verb = "leave" if position.is_check() else "expose"
        return {"legal": False, "article": "3.8.4", "reason": f"the move would {verb} the {COLOURS[piece.color]} "
                                                              "king in check"}
    article, reason = _geometry(position, move, piece)
    return {"legal": False, "article": article, "reason": reason}


_SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?$")


def _san_candidate(position: chess.Board, written: str) -> chess.Move | None:
    """The one move an illegal SAN move can mean (its piece, from the only square such a piece stands on), to
    say which article forbids it; None when it names no piece of the side to move."""
    if written in ("O-O", "O-O-O"):  # castling, as the king's move from its original square
        rank = 0 if position.turn == chess.WHITE else 7
        return chess.Move(chess.square(4, rank), chess.square(6 if written == "O-O" else 2, rank))
    found = _SAN.match(written)
    if not found:
        return None
    letter, file, rank, target, promotion = found.groups()
    kind = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
    to = chess.parse_square(target)
    if kind == chess.PAWN and file is None:
        file = target[0]  # a pawn's move without a capture names its own file
    origins = [square for square in position.pieces(kind, position.turn)
               if (file is None or chess.square_file(square) == ord(file) - ord("a"))
               and (rank is None or chess.square_rank(square) == int(rank) - 1)]
    if kind == chess.PAWN:  # the pawn nearest behind the target on its file
        ahead = 1 if position.turn == chess.WHITE else -1
        origins = sorted((s for s in origins if (chess.square_rank(to) - chess.square_rank(s)) * ahead > 0),
                         key=lambda s: abs(chess.square_rank(to) - chess.square_rank(s)))[:1]
    moves = [chess.Move(origin, to, chess.PIECE_SYMBOLS.index(promotion.lower()) if promotion else None)
             for origin in origins]
    # Of several such pieces, the one that moves along the right line says the most (blocked, pinned...).
    basic = {"3.2", "3.3", "3.4", "3.6", "3.8.1"}
    return next((m for m in moves if explain(position, m)["article"] not in basic), moves[0] if moves else None)


def legal_move(fen: str, move: str) -> dict:
    """Whether `move` (SAN or squares) is legal in the position `fen`, the article that decides it and, when legal,
    the move as written and what it gives: {"legal", "article", "reason", "san", "check", "checkmate", "fen"}."""
    position = board(fen)
    written = _move_text(move)
    try:
        found = parse_move(position, move)
    except NoMove as exc:
        raise Refused(str(exc), "move") from None
    except ValueError:
        found = None
    if found is None:
        try:
            candidate = chess.Move.from_uci(written.lower().replace("-", ""))
        except ValueError:
            candidate = _san_candidate(position, written)
            if candidate is None:
                raise Refused(f"move {move!r} is not a move in algebraic notation here (give the squares, such as "
                              "e2e4 or e7e8q, to learn why a move is illegal)", "move") from None
        verdict = explain(position, candidate)
        return {**verdict, "san": None, "check": False, "checkmate": False, "fen": None}
    san = position.san(found)
    position.push(found)
    return {"legal": True, "article": "4.6", "reason": "all the requirements of Article 3 are fulfilled",
            "san": san, "check": position.is_check(), "checkmate": position.is_checkmate(), "fen": position.fen()}


def verdict(move: str, fen: str = START, moves: str = "") -> dict:
    """Whether `move` is legal in the position after `moves` (from `fen`), and the article that decides it:
    {"legal", "article"}."""
    position, _ = replay(moves, fen)
    found = legal_move(position.fen(), move)
    return {"legal": found["legal"], "article": found["article"]}


# -- Article 4: touch-move -------------------------------------------------------------------------------------

def touched(fen: str, squares: list[str]) -> dict:
    """What the player having the move must do after deliberately touching pieces on `squares`, in the order
    touched (4.3, 4.4, 4.5): {"must", "article", "moves"}, the legal moves that fulfil the obligation (SAN)."""
    position = board(fen)
    touched_squares = [chess.parse_square(s.lower()) for s in squares]
    own = [s for s in touched_squares if (p := position.piece_at(s)) and p.color == position.turn]
    theirs = [s for s in touched_squares if (p := position.piece_at(s)) and p.color != position.turn]
    legal = list(position.legal_moves)
    sans = lambda moves: sorted(position.san(m) for m in moves)  # noqa: E731

    def moving(square):
        return [m for m in legal if m.from_square == square]

    def capturing(square):
        return [m for m in legal if m.to_square == square]

    king = position.king(position.turn)
    rooks = [s for s in own if position.piece_type_at(s) == chess.ROOK]
    if king in own and rooks:
        rook = rooks[0]
        castle = [m for m in legal if position.is_castling(m) and
                  (chess.square_file(m.to_square) > 4) == (chess.square_file(rook) > 4)]
        if own.index(king) < own.index(rook):
            if castle:
                return {"must": "castle on the side of the touched rook", "article": "4.4.1", "moves": sans(castle)}
            king_moves = moving(king)
            if king_moves:
                return {"must": "move the king (castling on that side is illegal)", "article": "4.4.3",
                        "moves": sans(king_moves)}
            return {"must": "make any legal move (the king has none)", "article": "4.4.3", "moves": sans(legal)}
        rook_moves = moving(rook)
        if rook_moves:
            return {"must": "move the rook, without castling on that side", "article": "4.4.2",
                    "moves": sans(rook_moves)}
        king_moves = [m for m in moving(king) if m not in castle]  # 4.3.1: the next piece touched, not castling
        if king_moves:
            return {"must": "move the king, without castling on that side", "article": "4.4.2",
                    "moves": sans(king_moves)}
    if own and theirs:
        both = [m for m in capturing(theirs[0]) if m.from_square == own[0]]
        if both:
            return {"must": "capture the touched piece with the touched piece", "article": "4.3.3", "moves": sans(both)}
        for square in touched_squares:
            found = moving(square) if square in own else capturing(square)
            if found:
                verb = "move" if square in own else "capture"
                return {"must": f"{verb} the piece on {chess.square_name(square)}", "article": "4.3.3",
                        "moves": sans(found)}
    elif own:
        for square in own:
            if moving(square):
                return {"must": f"move the piece on {chess.square_name(square)}", "article": "4.3.1",
                        "moves": sans(moving(square))}
    elif theirs:
        for square in theirs:
            if capturing(square):
                return {"must": f"capture the piece on {chess.square_name(square)}", "article": "4.3.2",
                        "moves": sans(capturing(square))}
    return {"must": "make any legal move (no touched piece can be moved or captured)", "article": "4.5",
            "moves": sans(legal)}


# -- Article 5 and 6.9: the end of the game --------------------------------------------------------------------

def dead(position: chess.Board) -> bool:
    """A dead position (5.2.2, 9.6) as material decides it: neither side has the pieces to checkmate by any
    series of legal moves (king against king, king and one minor piece, bishops all on squares of one colour).
    A blocked position with more material is not recognised."""
    return position.is_insufficient_material()


def ended_by(position: chess.Board) -> dict | None:
    """What ended the game in this position by itself under this edition (checkmate 5.1.1, stalemate 5.2.1,
    dead position 5.2.2), None when play goes on. Repetitions and move counts never end it (9.2, 9.3)."""
    if position.is_checkmate():
        return {"end": "checkmate", "article": "5.1.1", "winner": COLOURS[not position.turn]}
    if position.is_stalemate():
        return {"end": "stalemate", "article": "5.2.1", "winner": None}
    if dead(position):
        return {"end": "dead position", "article": "5.2.2", "winner": None}
    return None


def status(fen: str) -> dict:
    """What the position means for the game: {"status", "article", "winner", "check", "to_move", "legal_moves",
    "flag_fall"}; status is checkmate, stalemate, dead position or play on (winner only after a checkmate); flag_fall says, for each side whose
    flag might fall, whether that loses (6.9) or draws because the opponent has no mating material."""
    position = board(fen)
    ended = ended_by(position) or {"end": "play on", "article": "1.2", "winner": None}
    flag = {COLOURS[c]: "draw" if position.has_insufficient_material(not c) else "loss" for c in COLOURS}
    return _present({"status": ended["end"], "article": ended["article"], "winner": ended["winner"],
                     "check": position.is_check(), "to_move": COLOURS[position.turn],
                     "legal_moves": position.legal_moves.count(), "flag_fall": flag})


def _present(facts: dict) -> dict:
    """The facts that hold: a winner only when there is one, an end only when the game ended."""
    return {key: value for key, value in facts.items() if value is not None}


def flag_fall(fen: str, flagged: Literal["white", "black"]) -> dict:
    """The result when `flagged`'s flag falls in this position (6.9): lost, unless the opponent cannot checkmate
    by any possible series of legal moves, then drawn: {"result", "article", "winner" (after a loss)}."""
    position = board(fen)
    colour = chess.WHITE if flagged == "white" else chess.BLACK
    if position.has_insufficient_material(not colour):
        return {"result": "draw", "article": "6.9"}
    return {"result": "loss", "article": "6.9", "winner": COLOURS[not colour]}


def automatic_end(moves: str, fen: str = START) -> dict:
    """How a record ends by the Laws of this edition: {"ended", "end", "article", "plies", "repetitions",
    "halfmove_clock"} (end and article only when it ended); a fivefold repetition or 75 moves without capture or pawn move end nothing (no claim, no
    draw), unlike python-chess's `outcome()`."""
    position, named = replay(moves, fen)
    ended = ended_by(position)
    repeated = max(map(len, _occurrences(position).values()))
    return _present({"ended": ended is not None, "end": ended["end"] if ended else None,
                     "article": ended["article"] if ended else None, "plies": len(named), "repetitions": repeated,
                     "halfmove_clock": position.halfmove_clock})


# -- Article 9: the arbiter's claims ----------------------------------------------------------------------------

def _key(position: chess.Board):
    """What makes positions the same (9.2): the same player has the move, the same pieces on the same squares,
    and the same possible moves: castling rights as rights (lost only once the king or rook has moved), an en
    passant square only while a pawn can really capture there."""
    return position._transposition_key()


def _occurrences(position: chess.Board) -> dict:
    """position key → the plies (0 = the starting position) after which it stood on the board."""
    replayed = position.root()
    found = {_key(replayed): [0]}
    for ply, move in enumerate(position.move_stack, start=1):
        replayed.push(move)
        found.setdefault(_key(replayed), []).append(ply)
    return found


def _after(ply: int, named: list[str]) -> str:
    return "the start" if ply == 0 else f"after {named[ply - 1]}"


def draw_claim(game: str, claim: Literal["threefold", "fifty-moves"], move: str = "", fen: str = START) -> dict:
    """Whether a draw claim by the player having the move after `game` (a PGN or its moves, from `fen`) is
    correct: threefold repetition (9.2) or fifty moves without a pawn move or capture (9.3); `move` is the
    move he writes and declares he will make (9.2.1, 9.3.1), else the claim is on the position on the board
    (9.2.2, 9.3.2). Returns {"valid", "claim", "article", "claimant", "occurrences", "when", "moves_without",
    "since", "consequence", "consequence_article"}."""
    position, named = replay(game, fen)
    ended = ended_by(position)
    if ended:
        raise Refused(f"the game has already ended by {ended['end']} (FIDE {ended['article']}); there is nothing "
                      "to claim", "pgn")
    claimant = COLOURS[position.turn]
    intended = None
    if move:
        try:
            found = parse_move(position, move)
        except ValueError as exc:
            raise Refused(str(exc), "move") from None
        intended = f"{_number(len(named), chess.Board(fen))} {position.san(found)}"
        position.push(found)
        named = named + [intended]
    if claim == "threefold":
        article = "9.2.1" if intended else "9.2.2"
        plies = _occurrences(position)[_key(position)]
        valid = len(plies) >= 3
        result = {"occurrences": len(plies), "when": [_after(p, named) for p in plies],
                  "moves_without": None, "since": None}
    else:
        article = "9.3.1" if intended else "9.3.2"
        clock = position.halfmove_clock
        valid = clock >= 100
        last = len(named) - clock
        result = {"occurrences": None, "when": [],
                  "moves_without": clock // 2 if clock % 2 == 0 else clock / 2,
                  "since": _after(last, named) if last >= 0 else
                  f"before the position given (its half-move clock was {clock - len(named)})"}
    return {"valid": valid, "claim": claim, "article": article, "claimant": claimant, "intended_move": intended,
            **result, "consequence": "the game is drawn" if valid else
            "three minutes are added to the opponent's time and the game continues" +
            (f"; {intended} must be played" if intended else ""),
            "consequence_article": "9.5.1" if valid else "9.5.2"}


def claim_outcome(game: str, claim: Literal["threefold", "fifty-moves"], move: str = "", fen: str = START) -> dict:
    """A draw claim's verdict in short: {"valid", "article", "consequence_article"}."""
    found = draw_claim(game, claim, move, fen)
    return {key: found[key] for key in ("valid", "article", "consequence_article")}


# -- calculators ------------------------------------------------------------------------------------------------

@contextmanager
def _refusal():
    """A refused position, game or move as the calculators' error, naming the parameter at fault."""
    try:
        yield
    except Refused as exc:
        raise CalcError(f"parameter {exc.param!r}: {exc}", exc.param) from None


GameRecord = Annotated[str, Param("the game in PGN (Portable Game Notation), or just its moves: 1. e4 e5 2. Nf3",
                                  length=MAX_GAME)]
Fen = Annotated[str, Param("the position in FEN (Forsyth-Edwards Notation), as a chess program exports it",
                           length=MAX_FEN)]


def calc_claim(pgn: GameRecord,
               claim: Annotated[Literal["threefold", "fifty-moves"], Param(
                   "the draw claimed: threefold repetition (FIDE 9.2) or fifty moves (FIDE 9.3)")],
               move: Annotated[str, Param("the move the claimant writes and declares he will make, if any",
                                          length=MAX_MOVE)] = "",
               fen: Annotated[str, Param("the starting position in FEN (Forsyth-Edwards Notation), when not the "
                                         "usual one", length=MAX_FEN)] = START) -> dict:
    """Is a draw claim correct: threefold repetition or fifty moves, on the board or with the intended move."""
    with _refusal():
        return draw_claim(pgn, claim, move, fen or START)


def calc_position(fen: Fen) -> dict:
    """What a position means: checkmate, stalemate, dead position or play on, and a flag fall's result."""
    with _refusal():
        return status(fen)


def calc_move(fen: Fen,
              move: Annotated[str, Param("the move: SAN (Nf3, O-O) or squares (e2e4, e7e8q)", length=MAX_MOVE)]) -> dict:
    """Is a move legal, and if not which article forbids it."""
    with _refusal():
        return legal_move(fen, move)


def _when(plies: list[str], shown: int = 4) -> str:
    """The first few times a position stood on the board, in words; the count says how many there were."""
    return and_list(plies) if len(plies) <= shown else ", ".join(plies[:shown]) + ", …"


def _say_claim(inputs: dict, r: dict) -> str:
    verdict = "correct: the game is drawn" if r["valid"] else "incorrect"
    if r["claim"] == "threefold":
        detail = (f"the position {'after the intended move ' + r['intended_move'] + ' ' if r['intended_move'] else ''}"
                  f"has appeared {r['occurrences']} time{'s' if r['occurrences'] != 1 else ''} "
                  f"({_when(r['when'])}) with the same player to move and the same possible moves")
    else:
        detail = f"{r['moves_without']} moves by each player without a pawn move or capture, since {r['since']}"
    more = "" if r["valid"] else f"; {r['consequence']} (FIDE {r['consequence_article']})"
    return f"{r['claimant'].capitalize()}'s {r['claim']} claim is {verdict} (FIDE {r['article']}): {detail}{more}."


def _say_position(inputs: dict, r: dict) -> str:
    flags = "; ".join(f"if {side}'s flag falls: {'a draw' if how == 'draw' else 'a loss'}"
                      for side, how in r["flag_fall"].items())
    if r["status"] == "checkmate":
        head = f"Checkmate: {r['winner'].capitalize()} has won (FIDE {r['article']})."
    elif r["status"] == "play on":
        head = (f"Play on: {r['to_move'].capitalize()} has {r['legal_moves']} legal moves"
                f"{' and is in check' if r['check'] else ''}.")
    else:
        head = f"{r['status'].capitalize()}: the game is drawn (FIDE {r['article']})."
    return f"{head} By material, {flags} (FIDE 6.9)." if r["status"] == "play on" else head


def _say_move(inputs: dict, r: dict) -> str:
    if r["legal"]:
        gives = " and checkmates" if r["checkmate"] else " and gives check" if r["check"] else ""
        return f"{r['san']} is legal{gives} (FIDE {r['article']})."
    return f"{inputs['move']} is illegal: {r['reason']} (FIDE {r['article']})."


_CLAIM_RULINGS = tuple(ruling(a) for a in ("9.2", "9.2.1", "9.2.2", "9.3", "9.3.1", "9.3.2", "9.5.1", "9.5.2"))
_POSITION_RULINGS = tuple(ruling(a) for a in ("5.1.1", "5.2.1", "5.2.2", "9.6", "6.9"))
_MOVE_RULINGS = tuple(ruling(a) for a in ("1.1", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7.1", "3.7.2",
                                          "3.7.3", "3.7.4", "3.7.5", "3.8.1", "3.8.2.1", "3.8.2.2", "3.8.3.1",
                                          "3.8.3.2", "3.8.4", "4.6"))


def _claim_decided_by(inputs: dict, r: dict) -> tuple[str, ...]:
    """The claim's article (9.2 or 9.3), the point it was made under and what follows from the verdict (9.5)."""
    return tuple(ruling(a) for a in (r["article"].rsplit(".", 1)[0], r["article"], r["consequence_article"]))


def _position_decided_by(inputs: dict, r: dict) -> tuple[str, ...]:
    """The article that ended the game (a dead position's two), or, while play goes on, the flag fall's (6.9)."""
    articles = {"dead position": ("5.2.2", "9.6"), "play on": ("6.9",)}.get(r["status"], (r["article"],))
    return tuple(map(ruling, articles))


def _move_decided_by(inputs: dict, r: dict) -> tuple[str, ...]:
    """The article that forbids an illegal move; for a legal one, how that piece moves and 4.6."""
    if not r["legal"]:
        return (ruling(r["article"]),)
    return ruling(movement(board(inputs["fen"]), r["san"])), ruling(r["article"])


CALCULATORS = {
    "claim": Calculator(calc_claim, _CLAIM_RULINGS, _say_claim, _claim_decided_by),
    "position": Calculator(calc_position, _POSITION_RULINGS, _say_position, _position_decided_by),
    "move": Calculator(calc_move, _MOVE_RULINGS, _say_move, _move_decided_by),
}
