"""The attacks step's shares (families/regex/attacks.py): a tree's regexes are dealt out so that one
file's run of slow regexes is spread over every share, each regex's answer comes back in its place,
and what a regex gets (its generated strings, its analysis time) does not depend on its share."""

from stallbench_lib.families.regex import attacks, tools


def test_every_regex_is_dealt_once_and_a_file_s_neighbours_go_to_different_shares():
    for count in (0, 1, 39, 40, 41, 893):
        shares = attacks.dealt(count)
        assert sorted(i for share in shares for i in share) == list(range(count))
        assert all(0 < len(share) <= attacks.SHARE for share in shares)
        assert len(shares) == -(-count // attacks.SHARE)
    shares = attacks.dealt(893)
    where = {i: k for k, share in enumerate(shares) for i in share}
    assert len({where[i] for i in range(len(shares))}) == len(shares)  # N neighbours, N shares
    assert max(map(len, shares)) - min(map(len, shares)) <= 1


def test_the_replies_come_back_in_the_regexes_order(monkeypatch):
    asked = []

    def answer(script, request, timeout_s):
        asked.append([r["source"] for r in request["regexes"]])
        return {"recheck": "recheck (stand-in)", "results": [{"source": r["source"]} for r in request["regexes"]]}

    monkeypatch.setattr(tools, "ensure_installed", lambda: None)
    monkeypatch.setattr(tools, "tool_node", lambda: None)
    monkeypatch.setattr(tools, "run", answer)
    regexes = [{"source": f"r{i}", "flags": "", "attack": i % 2 == 0, "native": False} for i in range(95)]
    reply = attacks._analysed(regexes)
    assert [r["source"] for r in reply["results"]] == [r["source"] for r in regexes]
    assert len(asked) == 3 and not any({"r0", "r1"} <= set(share) for share in asked)  # dealt, not cut


def _analyse(regexes):
    return attacks._analysed(regexes)["results"]  # one share: a few regexes


def test_a_regex_gets_the_same_strings_whichever_regexes_share_its_process(regex_tools):
    word = {"source": "^[a-z]+(?:-[a-z0-9]+)*$", "flags": "", "attack": False, "native": False}
    number = {"source": "^\\d{1,3}(?:,\\d{3})*$", "flags": "", "attack": False, "native": False}
    alone = _analyse([word])[0]
    second = _analyse([number, word])[1]
    assert alone["generated"] and alone["generated"] == second["generated"]


def test_each_regex_says_where_its_analysis_time_went(regex_tools):
    asked, not_asked = _analyse([{"source": "^(a+)+$", "flags": "", "attack": True, "native": False},
                                 {"source": "^ab$", "flags": "", "attack": False, "native": False}])
    assert {"recheck", "generate"} <= set(asked["ms"]) and all(ms >= 0 for ms in asked["ms"].values())
    assert set(not_asked["ms"]) == {"generate"}
