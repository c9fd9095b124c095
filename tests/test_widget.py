"""The puzzle widget's Python side, driven through its model exactly as the
browser drives it (custom messages), checked against the library functions."""
from __future__ import annotations

from collections import deque

import pytest

pytest.importorskip("anywidget", reason="the widget needs anywidget: pip install anywidget")

from permgroup import explore# noqa: E402
from permgroup.elements import Element, State  # noqa: E402
from permgroup.perm import act  # noqa: E402
from permgroup.drawing import picture  # noqa: E402
from permgroup.widget import PuzzleWidget, element_of_colouring  # noqa: E402
from puzzles import cube3, minicube, torus  # noqa: E402

SOLVED = "UUUURRRRFFFFDDDDLLLLBBBB"


def press(w: PuzzleWidget, **content) -> PuzzleWidget:
    """Send one message as the browser does, then wait for the read-outs."""
    w._handle_custom_msg(content, [])
    return w.wait(30)


def check_minicube(w: PuzzleWidget, history: str) -> None:
    state = minicube.apply_moves(SOLVED, history)
    assert w.history == " ".join(history.split())
    assert w.state == state
    assert not w.busy
    assert w.distance == minicube.distance(SOLVED, state)
    assert len(w.solution) == w.distance
    assert minicube.same_state(minicube.apply_moves(state, w.solution), SOLVED)
    assert f"distance to solved: {w.distance} " in w.distance_text
    assert w.svg.count("data-position=") == 24


def test_starts_solved_with_an_empty_history():
    w = explore.widget(minicube.PUZZLE).wait(30)
    assert w.history == "" and w.state == SOLVED and w.distance == 0 and w.solution == []
    assert w.moves == ["U", "U'", "R", "R'", "F", "F'", "D", "D'", "L", "L'", "B", "B'"]
    assert w.element == Element.identity(minicube.PUZZLE)
    assert w.element_text.startswith("order 1")


def test_history_set_from_python():
    w = explore.widget(minicube.PUZZLE)
    w.history = "R U"
    assert w.state == minicube.apply_moves(SOLVED, "R U")
    w.wait(30)
    assert w.distance == 2 == minicube.distance(SOLVED, w.state)
    with pytest.raises(ValueError, match="unknown move 'X'"):
        w.history = "R X"
    assert w.history == "R U"


def test_pressing_moves_follows_the_library():
    w = explore.widget(minicube.PUZZLE)
    pressed = []
    for name in ["R", "U", "F'", "L", "D'", "B", "R'"]:
        press(w, type="move", name=name)
        pressed.append(name)
        check_minicube(w, " ".join(pressed))
        assert w.element == Element.from_word(minicube.PUZZLE, " ".join(pressed))
        assert w.element_text.startswith(f"order {w.element.order()} ")


def test_undo_and_reset():
    w = explore.widget(minicube.PUZZLE)
    for name in ["R", "U", "R"]:
        press(w, type="move", name=name)
    press(w, type="undo")
    check_minicube(w, "R U")
    press(w, type="undo")
    press(w, type="undo")
    press(w, type="undo")  # nothing left to undo: stays solved
    check_minicube(w, "")
    press(w, type="move", name="F")
    press(w, type="reset")
    check_minicube(w, "")


def test_typed_history():
    w = explore.widget(minicube.PUZZLE)
    press(w, type="history", text="R U R' U'")
    check_minicube(w, "R U R' U'")
    assert w.element.cycle_type() == Element.from_word(minicube.PUZZLE, "R U R' U'").cycle_type()
    press(w, type="history", text="RUR'U'  R2")  # compact notation, shown in the puzzle's
    assert w.history == "R U R' U' R2"
    press(w, type="move", name="U")
    check_minicube(w, "R U R' U' R2 U")


def test_bad_typed_input_shows_a_message():
    w = explore.widget(minicube.PUZZLE)
    press(w, type="history", text="R U")
    press(w, type="history", text="R Q U")
    assert "unknown move 'Q' at character 3 (token 2)" in w.message
    assert w.history == "R U" and w.state == minicube.apply_moves(SOLVED, "R U")
    press(w, type="move", name="R")  # the next good request clears the message
    assert w.message == ""
    press(w, type="move", name="Z9")
    assert "unknown move 'Z9'" in w.message
    press(w, type="target", text="R %")
    assert "unknown move '%' at character 3" in w.message and w.target is None
    press(w, type="target", text="UUUURRRRFFFFDDDDLLLLBBBU")  # a colouring no move gives
    assert "no element of minicube gives this colouring" in w.message
    press(w, type="frobnicate")
    assert "unknown request" in w.message


def test_target_distance_and_solution():
    w = explore.widget(minicube.PUZZLE)
    press(w, type="history", text="R U F")
    press(w, type="target", text="L' D2")
    goal = minicube.apply_moves(SOLVED, "L' D2")
    assert w.target_history == "L' D2"
    assert w.target_distance == minicube.distance(w.state, goal)
    assert len(w.target_solution) == w.target_distance
    assert minicube.same_state(minicube.apply_moves(w.state, w.target_solution), goal)
    press(w, type="target_here")
    assert w.target_distance == 0 and w.target_solution == []
    w.target = None
    w.wait(30)
    assert w.target_text == "" and w.target_distance == -1


def test_state_and_element_settable():
    w = explore.widget(minicube.PUZZLE)
    goal = minicube.apply_moves(SOLVED, "F R' U2")
    w.state = goal
    assert w.state == goal and w.history == ""
    assert w.wait(30).distance == minicube.distance(SOLVED, goal)
    press(w, type="move", name="U")
    assert w.state == minicube.apply_moves(goal, "U")
    press(w, type="reset")  # back to the state that was set
    assert w.state == goal
    w.element = Element.from_word(minicube.PUZZLE, "R R")
    assert w.history == "R R" and w.state == minicube.apply_moves(SOLVED, "R2")
    with pytest.raises(ValueError, match="no element"):
        w.state = "UUUURRRRFFFFDDDDLLLLBBBU"
    w2 = explore.widget(State.solved(minicube.PUZZLE).apply("R U'"))
    assert w2.state == minicube.apply_moves(SOLVED, "R U'")


def test_keys_for_one_letter_moves():
    w = explore.widget(minicube.PUZZLE, "htm")
    assert w.key_moves["r"] == "R" and w.key_moves["R"] == "R'"
    assert "R2" in w.moves and len(w.moves) == 18


def test_stale_read_outs_are_dropped():
    w = explore.widget(minicube.PUZZLE)
    for name in ["R", "U", "F", "U", "R"]:
        w._handle_custom_msg({"type": "move", "name": name}, [])  # no waiting between
    w.wait(30)
    check_minicube(w, "R U F U R")


# --- puzzles without a renderer ---------------------------------------------------

def bars_puzzle():
    """Three two-sticker bars on a ring of three slots, plus a loose dot."""
    from sympy.combinatorics import Permutation

    turn = Permutation([[0, 2, 4], [1, 3, 5]], size=7)
    flip = Permutation([[0, 1]], size=7)
    return explore.define_puzzle("bars", {"T": turn, "F": flip}, solved="abbccad",
                                 pieces={"bar": [(0, 1), (2, 3), (4, 5)]})


def test_generic_layout_for_a_puzzle_without_renderer():
    p = bars_puzzle()
    assert not p.renderer
    w = explore.widget(p).wait(30)
    assert w.svg == picture(p, "abbccad")
    assert w.svg.count("data-position=") == 7 and ">bar<" in w.svg and ">other<" in w.svg
    before = w.svg
    press(w, type="move", name="F")
    assert w.svg != before and w.state == "".join(act("abbccad", p.generators["F"]))
    press(w, type="move", name="T")
    e = Element.from_word(p, "F T")
    assert w.distance == explore.distance(Element.identity(p), e)
    assert w.element_text.startswith(f"order {e.order()}")


def test_colouring_puzzle_matches_a_plain_bfs():
    small = torus.torus_puzzle(2, 3)
    w = explore.widget(small)
    goal = "".join(small.solved)
    moves = [(name, small.move_array(name)) for name in w.moves]
    depth = {goal: 0}  # a plain BFS over colourings, from the goal (moves are undone)
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        for _, m in moves:
            t = "".join(act(s, [m.index(i) for i in range(len(m))]))
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    for word in ["row0", "row0 col1", "col2' row1 col0", "row0 col1 row1 col2 row0"]:
        press(w, type="history", text=word)
        assert w.state == torus.apply_moves(goal, word, small)
        assert w.distance == depth[w.state]
        assert torus.apply_moves(w.state, w.solution, small) == goal
    w.state = "GRRRGG"  # colours alone: read by search
    assert w.state == "GRRRGG" and w.wait(30).distance == depth["GRRRGG"]


def test_element_of_colouring_reads_every_state_of_the_bars():
    p = bars_puzzle()
    for word in ["", "T", "F T F", "T T F T'"]:
        e = Element.from_word(p, word)
        found = element_of_colouring(p, act(p.solved, e.perm))
        assert found is not None and act(p.solved, found.perm) == act(p.solved, e.perm)


def test_search_with_a_time_limit_where_no_table_fits():
    w = explore.widget(cube3.PUZZLE, time_limit=30)
    press(w, type="history", text="R U F")
    assert w.distance == 3 and "search" in w.distance_text
    assert cube3.apply_moves(w.state, w.solution) == cube3.SOLVED
    quick = explore.widget(cube3.PUZZLE, time_limit=0.05)
    quick.history = "R U F' D L2 B R' U2 F L' D B2 R U'"
    assert quick.wait(60).busy is False
    assert quick.distance == -1 and "no answer within 0.05 s" in quick.distance_text


def test_state_of_a_cube3_is_read_piece_by_piece():
    w = explore.widget(cube3.PUZZLE, time_limit=30)
    w.state = cube3.apply_moves(cube3.SOLVED, "R U F'")
    assert w.element == Element.from_word(cube3.PUZZLE, "R U F'") and w.history == ""
    assert w.wait(60).distance == 3


def test_state_of_the_torus_is_found_by_search():
    w = explore.widget(torus.PUZZLE, time_limit=30)
    board = torus.apply_moves(torus.GOAL, "col0 row1 col2' row3")
    w.state = board
    assert w.state == board and w.history == ""
    assert w.wait(60).distance == torus.distance(board) == 4
    assert torus.apply_moves(board, w.solution) == torus.GOAL


def test_a_new_state_cancels_the_search_for_the_old_one():
    w = explore.widget(cube3.PUZZLE, time_limit=120)
    w.history = "R U F' D L2 B R' U2 F L' D B2 R U'"  # far too deep for the search
    old = w._job
    w.history = "R"
    assert w.wait(60).distance == 1 and w.solution == ["R'"]
    old.join(30)
    assert not old.is_alive()  # stopped long before its two minutes
