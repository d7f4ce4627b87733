"""The server in five languages: the catalogs it exports to the web client, the "How to play"
pages, and its error messages in the language each request asks for (codes unchanged)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from patchwork import i18n
from patchwork.i18n import catalogs
from patchwork.server.common.config import Settings
from patchwork.server.common.errors import ServerError, language_of
from patchwork.server.http.app import create_app

LANGS = tuple(code for code in i18n.LANGUAGES if code != "en")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("i18n") / "games.db"
    app = create_app(Settings(db_url=f"sqlite:///{db}", ai_workers=1, http_rate=0))
    with TestClient(app) as c:
        yield c


def error(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()["error"]
    return body


def test_the_languages_list(client: TestClient) -> None:
    r = client.get("/api/i18n")
    assert r.status_code == 200
    langs = r.json()["languages"]
    assert langs[0] == {"code": "en", "name": "English", "dir": "ltr"}
    by_code = {lang["code"]: lang for lang in langs}
    assert set(by_code) == {"en", *LANGS}
    assert by_code["fa"] == {"code": "fa", "name": "فارسی", "dir": "rtl"}
    assert by_code["ru"]["name"] == "Русский" and by_code["ru"]["dir"] == "ltr"
    assert by_code["pt"]["name"] == "Português" and by_code["fi"]["name"] == "Suomi"


def test_the_persian_catalog_as_the_web_client_gets_it(client: TestClient) -> None:
    r = client.get("/api/i18n/fa")
    assert r.status_code == 200
    assert "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body["language"] == "fa" and body["dir"] == "rtl"
    assert body["plural"] == "(n > 1)" and body["nplurals"] == 2
    assert body["digits"] == "۰۱۲۳۴۵۶۷۸۹"
    assert body["messages"]["Your turn"] == "نوبت شما"
    assert body["messages"]["Time board"] == "تختهٔ زمان"
    forms = body["plurals"]["Advance: +{n} button"]
    assert len(forms) == 2 and all("{n}" in f and "دکمه" in f for f in forms)
    # The export is the compiled catalog itself: every translated entry, nothing else.
    entries = catalogs.read_mo(catalogs.mo_path("fa").read_bytes())
    singles = {k for k in entries if k and "\0" not in k}
    assert set(body["messages"]) == singles
    assert set(body["plurals"]) == {k.split("\0")[0] for k in entries if "\0" in k}


def test_russian_has_three_plural_forms(client: TestClient) -> None:
    body = client.get("/api/i18n/ru").json()
    assert body["nplurals"] == 3
    forms = body["plurals"]["{name} wins by {n} point."]
    assert [f.format(name="A", n=n) for n, f in zip((1, 3, 5), forms, strict=True)] == [
        "A побеждает с перевесом в 1 очко.",
        "A побеждает с перевесом в 3 очка.",
        "A побеждает с перевесом в 5 очков.",
    ]
    # The C expression the client evaluates picks the same form as gettext does.
    plural = body["plural"]
    t = i18n.translation("ru")
    for n in (0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111):
        assert (
            t.ngettext("{n} legal move:", "{n} legal moves:", n)
            == (body["plurals"]["{n} legal move:"][c_plural(plural, n)])
        )


def c_to_python(expr: str) -> str:
    """A gettext plural expression (C: ``a ? b : c``, ``&&``, ``||``) as Python."""
    expr = expr.strip()
    depth, question = 0, -1
    for i, ch in enumerate(expr):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "?" and depth == 0:
            question = i
            break
    if question < 0:
        inner = expr[1:-1] if expr.startswith("(") and expr.endswith(")") else None
        if inner is not None and inner.count("(") == inner.count(")") and "?" in inner:
            return c_to_python(inner)
        return expr.replace("&&", " and ").replace("||", " or ")
    depth, nested = 0, 0
    for i in range(question + 1, len(expr)):
        ch = expr[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and ch == "?":
            nested += 1
        elif depth == 0 and ch == ":":
            if nested == 0:
                cond, then, other = expr[:question], expr[question + 1 : i], expr[i + 1 :]
                return (
                    f"(({c_to_python(then)}) if ({c_to_python(cond)}) else ({c_to_python(other)}))"
                )
            nested -= 1
    raise ValueError(expr)


def c_plural(expression: str, n: int) -> int:
    """The plural form a client evaluating the catalog's C expression picks for ``n``."""
    return int(eval(c_to_python(expression), {"n": n}))


def test_every_shipped_catalog_exports(client: TestClient) -> None:
    for lang in ("en", *LANGS):
        body = client.get(f"/api/i18n/{lang}").json()
        assert body["language"] == lang
        assert set(body) >= {"language", "dir", "plural", "messages", "plurals"}
    assert client.get("/api/i18n/en").json()["messages"] == {}
    assert client.get("/api/i18n/pt").json()["nplurals"] == 3  # CLDR: one, many, other


def test_an_unknown_language_is_a_404_in_the_usual_shape(client: TestClient) -> None:
    r = client.get("/api/i18n/xx")
    assert r.status_code == 404
    assert error(r)["code"] == "not_found" and "'xx'" in error(r)["message"]
    r = client.get("/api/i18n/xx", headers={"Accept-Language": "ru"})
    assert error(r) == {"code": "not_found", "message": "языка 'xx' нет"}
    assert client.get("/howto/xx").status_code == 404


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_how_to_play_pages(client: TestClient, lang: str) -> None:
    r = client.get(f"/howto/{lang}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    direction = "rtl" if lang == "fa" else "ltr"
    assert f'<html lang="{lang}" dir="{direction}">' in page
    assert '<a href="/" rel="home" class="brand">' in page
    assert "<h1>" in page and "<h2>" in page
    # The table's style and pictures: its stylesheet, and the figures howto.js draws from
    # /api/meta where the Markdown marks them (the terminal's text leaves the marks out).
    assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    assert '<script type="module" src="/static/js/howto.js">' in page
    for name in ("offer", "placement", "timeboard"):
        assert page.count(f'<figure class="howto-picture" data-picture="{name}">') == 1
    assert "[[picture" not in page and "[[picture" not in (i18n.howto_markdown(lang) or "")
    assert "<code>17r90@c4</code>" in page  # the notation is the same in every language
    title = i18n.translator(lang).gettext("How to play Patchwork")
    assert f"<title>{title}</title>" in page
    words = {"en": "buttons", "fa": "دکمه", "pt": "botões", "ru": "пуговиц", "fi": "nappi",
             "de": "Knöpfe", "fr": "boutons", "es": "botones", "it": "bottoni", "zh": "纽扣",
             "ja": "ボタン"}  # fmt: skip
    assert words[lang] in page


def test_error_messages_in_the_language_asked_for(client: TestClient) -> None:
    r = client.get("/api/games/nonexistent")
    assert r.status_code == 404
    assert error(r) == {"code": "game_not_found", "message": "there is no game 'nonexistent'"}
    r = client.get("/api/games/nonexistent", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert error(r) == {"code": "game_not_found", "message": "партии 'nonexistent' не существует"}
    r = client.get("/api/games/nonexistent?lang=fi", headers={"Accept-Language": "ru"})
    assert error(r)["message"] == "peliä 'nonexistent' ei ole"  # ?lang= wins
    r = client.get("/api/games/nonexistent", headers={"Accept-Language": "ko, fa;q=0.5"})
    assert error(r)["message"] == "بازی‌ای با شناسهٔ 'nonexistent' وجود ندارد"
    r = client.get("/api/games/nonexistent", headers={"Accept-Language": "ko, nl"})
    assert error(r)["message"] == "there is no game 'nonexistent'"  # English by default


def test_errors_of_a_game_in_russian(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "local"})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    ru = {"Accept-Language": "ru"}
    r = client.post(f"/api/games/{gid}/moves", json={"move": "A", "version": 1}, headers=ru)
    assert r.status_code == 401
    assert error(r) == {"code": "missing_token", "message": "для этого нужен секретный токен места"}
    auth = {**ru, "Authorization": f"Bearer {created.json()['token']}"}
    version = created.json()["game"]["version"]
    r = client.post(
        f"/api/games/{gid}/moves", json={"move": "A", "version": version + 5}, headers=auth
    )
    assert r.status_code == 409 and error(r)["code"] == "stale_version"
    assert error(r)["message"].startswith(f"партия в версии {version}, а не {version + 5}")
    assert error(r)["version"] == version  # extra fields stay
    r = client.post(f"/api/games/{gid}/hint", headers=auth)
    assert error(r) == {
        "code": "not_allowed",
        "message": "подсказки и анализ доступны только в партиях против ИИ",
    }
    r = client.get("/no/such/page", headers=ru)
    assert r.status_code == 404 and error(r) == {"code": "not_found", "message": "Не найдено"}


def test_persian_error_messages_use_persian_digits(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "local"}).json()
    auth = {"Authorization": f"Bearer {created['token']}", "Accept-Language": "fa"}
    version = created["game"]["version"]
    r = client.post(
        f"/api/games/{created['game_id']}/moves",
        json={"move": "A", "version": version + 12},
        headers=auth,
    )
    message = error(r)["message"]
    assert i18n.digits(version, "fa") in message and "۱" in message
    assert not re.search(r"[0-9]", message)


def test_a_refused_move_is_explained_in_the_language_asked_for(client: TestClient) -> None:
    # The first patches on offer are 22, 24 and 28, each costing 10 buttons (5 in hand).
    circle = [22, 24, 28, *(i for i in range(33) if i not in (22, 24, 28))]
    created = client.post(
        "/api/games", json={"mode": "local", "circle": circle, "first_player": 0}
    ).json()
    url = f"/api/games/{created['game_id']}/moves"
    auth = {"Authorization": f"Bearer {created['token']}"}
    version = created["game"]["version"]

    def refusal(move: str, lang: str | None) -> dict[str, Any]:
        headers = {**auth, "Accept-Language": lang} if lang else auth
        r = client.post(url, json={"move": move, "version": version}, headers=headers)
        assert r.status_code in (400, 409), r.text
        return error(r)

    assert refusal("4r0@a1", None) == {
        "code": "illegal_move",
        "message": "4r0@a1 is not allowed: patch 4 is not on offer (offered: 22, 24, 28)",
        "plain": "Patch 4 is not on offer: you may buy 22, 24, 28.",
    }
    assert refusal("4r0@a1", "ru") == {
        "code": "illegal_move",
        "message": "ход 4r0@a1 недопустим: лоскутка 4 нет среди предложенных "
        "(предложены: 22, 24, 28)",
        "plain": "Лоскутка 4 нет среди предложенных: можно купить 22, 24, 28.",
    }
    dear = refusal("22r0@a1", "fa")
    assert dear == {
        "code": "illegal_move",
        "message": "حرکت 22r0@a1 مجاز نیست: قیمت وصلهٔ ۲۲ بیش از دکمه‌های بازیکن ۰ است "
        "(قیمت: ۱۰، دکمه‌ها: ۵)",
        "plain": "پول وصلهٔ ۲۲ را ندارید: قیمتش ۱۰ دکمه است و شما ۵ دکمه دارید.",
    }
    # Persian digits everywhere but in the move notation, which stays as typed; the plain
    # words carry no notation at all.
    assert not re.search(r"[0-9]", dear["message"].replace("22r0@a1", ""))
    assert not re.search(r"[0-9]", dear["plain"])
    assert refusal("22r0@a1", None)["plain"] == (
        "You cannot afford patch 22: it costs 10 and you have 5."
    )
    assert refusal("4r0@a1", "fa")["message"].endswith("(پیشنهادی‌ها: ۲۲، ۲۴، ۲۸)")
    unreadable = refusal("40r0@a1", "fa")
    assert unreadable == {
        "code": "invalid_move",
        "message": "وصلهٔ ۴۰ وجود ندارد: شمارهٔ وصله‌ها از ۰ تا ۳۲ است",
    }
    assert refusal("zz", "fi")["message"].startswith("siirtoa 'zz' ei voi lukea: kirjoita A")
    assert refusal("S@e5", "pt")["message"] == (
        "o lance S@e5 não é permitido: não há pedaço especial para colocar"
    )
    # Nothing was played: the game is where it was.
    game = client.get(f"/api/games/{created['game_id']}").json()
    assert game["version"] == version and game["history"] == []


def next_error(ws: Any) -> dict[str, Any]:
    """The next ``error`` message (presence and state messages may come first)."""
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error message")


def test_the_websocket_answers_in_the_hello_language(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "local"}).json()
    gid = created["game_id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": created["token"], "lang": "pt"})
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "move": "zz", "version": 1, "id": 7})
        answer = next_error(ws)
        assert answer["code"] == "invalid_move" and answer["ref"] == 7
        ws.send_json({"type": "hello"})
        assert next_error(ws) == {
            "type": "error",
            "code": "invalid_message",
            "message": "hello é enviado uma só vez, primeiro",
            "ref": None,
        }
    # Before the hello: the handshake's ?lang= (or Accept-Language).
    with client.websocket_connect(f"/ws/games/{gid}?lang=fi") as ws:
        ws.send_json({"type": "ping"})
        answer = next_error(ws)
        assert answer["code"] == "hello_required"
        assert answer["message"] == "lähetä ensin hello (tunnisteesi kanssa, tai ilman katsoaksesi)"
    with client.websocket_connect("/ws/games/nope", headers={"Accept-Language": "ru"}) as ws:
        answer = next_error(ws)
        assert answer["code"] == "game_not_found"
        assert answer["message"] == "партии 'nope' не существует"


def test_language_negotiation() -> None:
    assert i18n.negotiate("fa-IR,fa;q=0.9,en;q=0.5") == "fa"
    assert i18n.negotiate("pt-BR") == "pt"
    assert i18n.negotiate("ko-KR, fi;q=0.2, ru;q=0.3") == "ru"
    assert i18n.negotiate("ru;q=0, fi") == "fi"
    assert i18n.negotiate("*") == "en" and i18n.negotiate(None) == "en"
    assert i18n.negotiate("xx, ;;, q=abc") == "en"
    assert language_of("pt", "ru") == "pt" and language_of("zz", "ru") == "ru"
    assert language_of(None, None) == "en"


def test_server_errors_keep_their_code_and_english_for_logs() -> None:
    err = ServerError("not_your_turn", "it is player {seat}'s turn", {"seat": 1}, to_move=1)
    assert str(err) == err.message == "it is player 1's turn"
    assert err.body() == {"code": "not_your_turn", "message": "it is player 1's turn", "to_move": 1}
    assert err.body("ru") == {
        "code": "not_your_turn",
        "message": "сейчас ход игрока 1",
        "to_move": 1,
    }
    assert err.body("fa")["message"] == "نوبت بازیکن ۱ است"
    # A message that is not in the catalogs (the engine's own words) passes through as is.
    assert ServerError("illegal_move", "x {y}").body("fi")["message"] == "x {y}"


def test_the_export_reads_the_same_catalog_gettext_reads(tmp_path: Path) -> None:
    for lang in LANGS:
        exported = catalogs.export(lang)
        assert exported is not None
        t = i18n.translation(lang)
        for msgid, text in exported["messages"].items():
            if "\x04" not in msgid:
                assert t.gettext(msgid) == text
    assert catalogs.export("xx") is None
    with pytest.raises(ValueError):
        catalogs.read_mo(b"not a catalog at all, just some bytes")


def test_how_to_play_separates_languages_as_each_language_reads(client: TestClient) -> None:
    """In Persian "·" reads as the digit zero: the links to the other languages take its own
    comma there."""
    persian = client.get("/howto/fa").text
    english = client.get("/howto/en").text
    assert "</a>، <a" in persian and "</a> · <a" not in persian
    assert "</a> · <a" in english
