"""One rule, one place, for the appeal, the correction date and the cost protest: the app's
code (portal/) and templates (templates/) are read, and a second copy of any of these
comparisons fails the suite.

Whether an appeal is in time is `rules.appeal_in_time`; whether the correction date has
passed is `rules.correction_passed`; whether a protest is in time is
`costs.protest_in_time`. Anywhere else, a `<`, `<=`, `>` or `>=` on a value that comes from
an appeal, the appeal window, the correction date or the protest period is a copy of the
rule (a copy the rule's tests do not guard), and so is any date comparison in an
enforcement template.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jinja2
from jinja2 import nodes

ROOT = Path(__file__).resolve().parent.parent
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
# Which names mark a value as the rule's (an appeal's day or window; the correction date, not
# the day a correction was checked), and the one function allowed to compare it.
RULES = {
    "appeal": ("portal/enforcement/rules.py", "appeal_in_time"),
    "correction": ("portal/enforcement/rules.py", "correction_passed"),
    "protest": ("portal/enforcement/costs.py", "protest_in_time"),
}
PATTERNS = {
    "appeal": re.compile("appeal"),
    "correction": re.compile(r"(^|_)correction(_due)?$"),
    "protest": re.compile("protest"),
}
# Date-like words in a template comparison (a page model gives the answer instead).
DATE_WORDS = (
    "_on",
    "due",
    "today",
    "isoformat",
    "day",
    "date",
    "window",
    "appeal",
    "correction",
    "deadline",
    "_at",
)


def words_in(node: ast.AST, tainted: dict[str, set[str]]) -> set[str]:
    """The rule words a Python expression mentions: in its names, attributes and string keys,
    and in the names assigned from such values earlier in the same function."""
    found: set[str] = set()
    for part in ast.walk(node):
        text = ""
        if isinstance(part, ast.Name):
            text = part.id
            found |= tainted.get(part.id, set())
        elif isinstance(part, ast.Attribute):
            text = part.attr
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            text = part.value
        found |= {word for word, pattern in PATTERNS.items() if pattern.search(text.lower())}
    return found


def targets(node: ast.AST) -> list[str]:
    """The names an assignment binds (not `x` of `x.attr = ...`)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [name for element in node.elts for name in targets(element)]
    return []


def own_nodes(scope: ast.AST):
    """The nodes of a function or module, not those of the functions it defines."""
    for child in ast.iter_child_nodes(scope):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        yield child
        yield from own_nodes(child)


def copies_in_python(path: Path) -> list[str]:
    """Each ordering comparison of a rule's value outside the rule's own function."""
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(), str(path))
    found = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in [tree, *scopes]:
        name = getattr(scope, "name", "<module>")
        tainted: dict[str, set[str]] = {}
        for node in own_nodes(scope):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                words = words_in(node.value, tainted)
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for target_name in targets(target):
                        tainted.setdefault(target_name, set()).update(words)
            if not isinstance(node, ast.Compare):
                continue
            if not any(isinstance(op, ORDERING) for op in node.ops):
                continue
            for word in words_in(node, tainted):
                if RULES[word] != (relative, name):
                    found.append(f"{relative}:{node.lineno} in {name}(): {ast.unparse(node)}")
    return sorted(set(found))


def python_files() -> list[Path]:
    return sorted((ROOT / "portal").rglob("*.py"))


def template_comparisons(path: Path) -> list[tuple[int, str, set[str]]]:
    """Each ordering comparison in a template, with the words of its operands."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    tree = env.parse(path.read_text())
    found = []
    for compare in tree.find_all(nodes.Compare):
        if not any(op.op in ("lt", "lteq", "gt", "gteq") for op in compare.ops):
            continue
        words = set()
        for part in [compare.expr, *(op.expr for op in compare.ops)]:
            for node in [part, *part.find_all((nodes.Name, nodes.Getattr, nodes.Const))]:
                if isinstance(node, nodes.Name):
                    words.add(node.name)
                elif isinstance(node, nodes.Getattr):
                    words.add(node.attr)
                elif isinstance(node, nodes.Const) and isinstance(node.value, str):
                    words.add(node.value)
        found.append((compare.lineno, " ".join(sorted(words)), words))
    return found


def test_the_appeal_and_correction_rules_are_compared_only_in_their_function():
    copies = [copy for path in python_files() for copy in copies_in_python(path)]
    assert copies == []


def test_the_check_sees_a_copy():
    """The check is not vacuous: a copy planted in a scratch module is found."""
    scratch = ROOT / "portal" / "enforcement" / "_scratch_copy.py"
    scratch.write_text(
        "def shown(line, steps, today, issued, terms, calendar):\n"
        "    window = appeal_window(issued, terms, calendar)\n"
        "    due = line.correction\n"
        "    late = steps['appeal_filed_on'] > window\n"
        "    return late, today <= due\n"
    )
    try:
        found = copies_in_python(scratch)
    finally:
        scratch.unlink()
    assert [line.split(" in ")[0] for line in found] == [
        "portal/enforcement/_scratch_copy.py:4",
        "portal/enforcement/_scratch_copy.py:5",
    ]


def test_no_template_compares_an_appeal_or_a_correction_date():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for line, text, words in template_comparisons(path)
        if any(pattern.search(word.lower()) for word in words for pattern in PATTERNS.values())
    ]
    assert found == []


def test_no_enforcement_template_compares_dates():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted((ROOT / "templates" / "staff" / "enforcement").glob("*"))
        for line, text, words in template_comparisons(path)
        if any(date in word.lower() for word in words for date in DATE_WORDS)
    ]
    assert found == []


def test_the_template_check_sees_a_copy(tmp_path):
    page = tmp_path / "notice.html"
    page.write_text(
        "{% if steps.late_appeal_accepted and steps.appeal_filed_on > appeal_due.isoformat() %}"
        "late{% endif %}{% if line.states|length > 1 %}s{% endif %}"
    )
    found = [words for _, _, words in template_comparisons(page)]
    assert len(found) == 2
    assert {"appeal_filed_on", "appeal_due", "isoformat"} <= found[0]
    assert found[1] == {"line", "states"}, "a count is no date"


# ---------------------------------------------------------------- what the offense number counts

# Whether an earlier violation counts toward the offense number is `rules.counts` (by the
# reading `offense_counts`); `rules.notice_standing` says when a notice is established, and
# `readings.readings` puts the reading in words. Anywhere else, reading `offense_counts` or a
# Prior's `convicted` is a second copy of the rule; in a template, so is any test of either or
# of a paper file's outcome (the page shows the answer the rule gave).
COUNTING = {"offense_counts", "convicted"}
COUNTING_PLACES = {
    ("portal/enforcement/rules.py", "counts"),
    ("portal/enforcement/rules.py", "notice_standing"),
    ("portal/enforcement/readings.py", "readings"),
}


def counting_copies(path: Path) -> list[str]:
    """Each read of the counting rule's inputs outside its own functions."""
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(), str(path))
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return sorted(
        f"{relative}:{node.lineno} in {getattr(scope, 'name', '<module>')}(): {ast.unparse(node)}"
        for scope in [tree, *scopes]
        if (relative, getattr(scope, "name", "<module>")) not in COUNTING_PLACES
        for node in own_nodes(scope)
        if isinstance(node, ast.Attribute) and node.attr in COUNTING
    )


def counting_in_template(path: Path) -> list[int]:
    """The lines of a template that test the counting rule's inputs."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    tree = env.parse(path.read_text())
    found = [n.lineno for n in tree.find_all(nodes.Getattr) if n.attr in COUNTING]
    for compare in tree.find_all(nodes.Compare):
        operands = [compare.expr, *(op.expr for op in compare.ops)]
        parts = [n for part in operands for n in [part, *part.find_all(nodes.Getattr)]]
        if any(isinstance(n, nodes.Getattr) and n.attr == "outcome" for n in parts):
            found.append(compare.lineno)
    return sorted(found)


def test_what_counts_toward_the_offense_number_is_decided_only_in_its_function():
    copies = [copy for path in python_files() for copy in counting_copies(path)]
    assert copies == []
    found = {
        f"{path.relative_to(ROOT)}": lines
        for path in sorted((ROOT / "templates").rglob("*.html"))
        if (lines := counting_in_template(path))
    }
    assert found == {}


def test_the_counting_check_sees_a_copy(tmp_path):
    scratch = ROOT / "portal" / "enforcement" / "_scratch_counting.py"
    scratch.write_text(
        "def counted(prior, terms):\n"
        "    if terms.offense_counts == 'final':\n"
        "        return prior.established\n"
        "    return prior.convicted\n"
    )
    try:
        found = counting_copies(scratch)
    finally:
        scratch.unlink()
    assert [line.split(" in ")[0] for line in found] == [
        "portal/enforcement/_scratch_counting.py:2",
        "portal/enforcement/_scratch_counting.py:4",
    ]
    page = tmp_path / "respondent.html"
    page.write_text(
        '{{ "counts" if p.outcome != "overturned" }}\n'
        "{% if enforcement.terms.offense_counts %}x{% endif %}\n"
        "{{ e.why if e.counted }}"
    )
    assert counting_in_template(page) == [1, 2]


# Issued papers are records (legal review A2, officer's week B1): the charge, the protest
# period and the kept papers each have one function. A sum of the cost's parts is the charge
# as mailed (`costs.charge_as_mailed`); the later of two protest dates is `costs.protest_ends`;
# a write to the kept papers is `papers.keep`.
CHARGE_PARTS = ("work_cents", "admin_cents")
OWNERS = {
    "charge": ("portal/enforcement/costs.py", "charge_as_mailed"),
    "later": ("portal/enforcement/costs.py", "protest_ends"),
    "papers": ("portal/enforcement/papers.py", "keep"),
}


def paper_rule_copies(path: Path) -> list[str]:
    """Each sum of the cost's parts, each max() or min() of a protest date, and each write to
    issued_papers, outside the function that owns the rule."""
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(), str(path))
    found = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in [tree, *scopes]:
        name = getattr(scope, "name", "<module>")
        tainted: dict[str, set[str]] = {}
        for node in own_nodes(scope):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for target_name in targets(target):
                        tainted.setdefault(target_name, set()).update(words_in(node.value, {}))
            rule = None
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                texts = {
                    p.value if isinstance(p, ast.Constant) else getattr(p, "attr", "")
                    for p in ast.walk(node)
                }
                rule = "charge" if any(part in texts for part in CHARGE_PARTS) else None
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("max", "min")
                and "protest" in words_in(node, tainted)
            ):
                rule = "later"
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.search(r"\b(INSERT INTO|UPDATE|DELETE FROM)\b", node.value)
                and "issued_papers" in node.value
            ) or (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "insert"
                and any(getattr(arg, "value", None) == "issued_papers" for arg in node.args)
            ):
                rule = "papers"
            if (
                rule
                and OWNERS[rule] != (relative, name)
                and relative != "portal/core/migrations.py"
            ):
                found.append(f"{relative}:{node.lineno} in {name}(): {rule}")
    return sorted(set(found))


def test_the_charge_the_protest_end_and_the_kept_papers_have_one_function_each():
    copies = [copy for path in python_files() for copy in paper_rule_copies(path)]
    assert copies == []


def test_the_paper_check_sees_a_copy():
    scratch = ROOT / "portal" / "enforcement" / "_scratch_paper.py"
    scratch.write_text(
        "def shown(steps, db, window, printed):\n"
        "    total = steps['work_cents'] + steps['admin_cents']\n"
        "    closes = max(protest_window(1, 2), printed)\n"
        "    db.execute('UPDATE issued_papers SET html = ?', ['x'])\n"
        "    insert(db, 'issued_papers', {})\n"
        "    return total, closes, window\n"
    )
    try:
        found = paper_rule_copies(scratch)
    finally:
        scratch.unlink()
    assert found == [
        "portal/enforcement/_scratch_paper.py:2 in shown(): charge",
        "portal/enforcement/_scratch_paper.py:3 in shown(): later",
        "portal/enforcement/_scratch_paper.py:4 in shown(): papers",
        "portal/enforcement/_scratch_paper.py:5 in shown(): papers",
    ]


def cost_sums(source: str) -> list[int]:
    """The lines of a template that add or subtract the cost's parts or the charge."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    found = []
    for add in env.parse(source).find_all((nodes.Add, nodes.Sub)):
        names = {n.attr for n in add.find_all(nodes.Getattr)}
        if names & {*CHARGE_PARTS, "charge", "charge_mailed"}:
            found.append(add.lineno)
    return found


def test_no_enforcement_template_adds_up_the_cost():
    found = [
        f"{path.name}:{line}"
        for path in sorted((ROOT / "templates" / "staff" / "enforcement").glob("*.html"))
        for line in cost_sums(path.read_text())
    ]
    assert found == []
    assert cost_sums("{{ (steps.work_cents + steps.admin_cents)|dollars }}") == [1]
    assert cost_sums("{{ (line.charge_mailed - line.charge)|dollars }}") == [1]
