"""The web table in a real headless Chromium (Debian's /usr/bin/chromium driven
by Playwright): a whole hand played by clicking in every preset, two people at
one table whose WebSocket frames never name the other's hand or the stock, a
reload that rejoins the seat, and a screenshot of each preset's table for
docs/web.md.  Skipped, with the reason, where Chromium or Playwright is missing."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
uvicorn = pytest.importorskip("uvicorn", reason="the web table needs the web extra")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests need playwright (pip install playwright)")

from gostop_core.bots.analysis import hint_moves  # noqa: E402
from gostop_core import Game  # noqa: E402
from gostop_core.bots import make_bot, play_game  # noqa: E402
from gostop_core.records import record_from_game  # noqa: E402
from gostop_web import ReplayLibrary, create_app  # noqa: E402

CHROMIUM = os.environ.get("GOSTOP_CHROMIUM", "/usr/bin/chromium")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)

#: Where the screenshots go: GOSTOP_SCREENSHOTS=docs/web refreshes those of
#: docs/web.md; by default a temporary folder, so a test run changes no file.
# in the default run wherever Chromium and Playwright are; `-m "not browser"` leaves them out
# one Chromium at a time when the tests run on several processes (-n 2 --dist loadfile)
pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("GOSTOP_SCREENSHOTS") or tempfile.mkdtemp(prefix="gostop-web-"))
SHOTS.mkdir(parents=True, exist_ok=True)
PRESET_GAMES = [("casual", 3), ("traditional", 2), ("standard", 2), ("family", 4)]
#: How each preset's report totals the hand: points, chips or balances.
UNIT_LINE = {"casual": "points: ", "traditional": "chips: ", "standard": "chips: ",
             "family": "balances: "}


def quick_hint(view):
    return hint_moves(view, depth=1, samples=8, time_ms=0)


def saved_hands() -> ReplayLibrary:
    """Two hands of greedy bots, saved as records, for the replay page."""
    records = []
    for seed, rules in ((5, "standard"), (6, "casual")):
        game = Game(rules, 2, seed=seed)
        play_game(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
        records.append(record_from_game(game, ["Ann", "Bo"]))
    return ReplayLibrary(records, "saved")


@contextlib.contextmanager
def serving(app):
    """``app`` on a free loopback port, served by uvicorn in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def server():
    # every test of the module sits at tables of this one client: room for all of them
    app = create_app(hint=quick_hint, move_delay=0.02, seed=20261201, replay=saved_hands(),
                     tables_per_client=32)
    with serving(app) as base:
        yield base, app


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                  args=["--no-sandbox", "--disable-gpu"])
        except Exception as exc:  # a Chromium Playwright cannot drive
            pytest.skip(f"Chromium did not start under Playwright: {exc}")
        yield b
        b.close()


def create_table(base: str, rules: str, players: int, seats: list) -> dict:
    req = urllib.request.Request(
        base + "/api/tables", method="POST",
        data=json.dumps({"rules": rules, "players": players, "seats": seats}).encode(),
        headers={"Content-Type": "application/json", "Origin": base})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def frames(page) -> int:
    return int(page.evaluate("document.body.dataset.frames || '0'"))


def click_once(page) -> str | None:
    """One decision by clicking, as a person would: a highlighted field card
    (the second click of a choice), else a button (Stop before Go), else the
    first playable card of the hand.  Returns what was clicked."""
    for selector in (".field img.card.target", '#actions button[data-move="stop"]',
                     "#actions button", "#hand img.card.playable"):
        target = page.locator(selector).first
        if target.count():
            try:
                what = (target.get_attribute("data-code", timeout=2_000)
                        or target.get_attribute("data-move", timeout=2_000))
                target.click(timeout=10_000)
            except sync_api.TimeoutError:
                # the page drew a new frame between the look and the read or the
                # click (the element went): look again, as a person would
                return "again"
            return what
    return None


#: What no frame's drawing may show (defect 10's leftovers), checked in the page:
#: a card that just moved (flashing) over its pile's label, the "flipped" caption cut
#: off, a ppeok stack drawn other than as one pile of its month's cards.
LAYOUT_FAULTS = """() => {
  const out = [];
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
                         a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (const pile of document.querySelectorAll('.pile')) {
    const label = pile.querySelector('.label').getBoundingClientRect();
    for (const img of pile.querySelectorAll('img.card'))
      if (meet(label, img.getBoundingClientRect())) out.push('card over label: ' + img.dataset.code);
  }
  const cap = document.querySelector('#flip .caption');
  if (cap) {
    const r = cap.getBoundingClientRect(), box = document.getElementById('flip').getBoundingClientRect();
    if (cap.scrollWidth > cap.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1 ||
        r.right > window.innerWidth) out.push('flipped caption cut');
  }
  for (const st of document.querySelectorAll('.field .stack')) {
    const months = new Set([...st.querySelectorAll('img.card')].map(i => i.dataset.code)
      .filter(c => !c.startsWith('X')).map(c => c.match(/^\\d+/)[0]));
    if (months.size !== 1 || !st.querySelector('.stack-label')) out.push('stack ' + st.dataset.stack);
  }
  return out;
}"""


def play_hand(page, limit: float = 30.0, shot: Path | None = None) -> int:
    """Click through the hand until the hand-over shows, checking the drawing of
    each frame (:data:`LAYOUT_FAULTS`); returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + limit
    while True:
        page.wait_for_function(
            "document.body.dataset.myTurn === '1' || "
            "document.getElementById('over').classList.contains('show')", timeout=15000)
        if page.locator("#over.show").count():
            return clicks
        assert time.monotonic() < deadline, "the hand took too long"
        if shot is not None and clicks == 3:
            page.wait_for_timeout(250)
            page.screenshot(path=str(shot), full_page=True)
        assert page.evaluate(LAYOUT_FAULTS) == []
        seen = frames(page)
        clicked = click_once(page)
        for _ in range(20):
            if clicked is not None:
                break
            if page.evaluate("document.body.dataset.phase") == "over":
                # the hand ended between the turn's frame and the click (the
                # other seat's last move): its result shows next
                page.wait_for_selector("#over.show", timeout=15000)
                return clicks
            # the page is between two drawings (nothing to click yet): wait, as
            # a person would
            page.wait_for_timeout(100)
            clicked = click_once(page)
        assert clicked is not None
        clicks += 1
        page.wait_for_function(
            f"Number(document.body.dataset.frames || 0) > {seen} || "
            "document.querySelector('.field img.card.target') !== null", timeout=15000)


@pytest.mark.parametrize("rules, players", PRESET_GAMES)
def test_a_whole_hand_by_clicking(server, browser, rules, players):
    base, app = server
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + "/")
    page.select_option("#preset", rules)
    page.select_option("#players", str(players))
    page.click("#create")
    page.wait_for_url(re.compile(r".*/t/.*token=.*"))
    page.wait_for_selector("#hand img.card")
    SHOTS.mkdir(parents=True, exist_ok=True)
    clicks = play_hand(page, shot=SHOTS / f"table-{rules}.png")
    assert clicks > 0
    report = page.inner_text("#report").splitlines()
    table_id = page.url.split("/t/")[1].split("?")[0]
    game = app.state.tables[table_id].game
    names = [s.name for s in app.state.tables[table_id].seats]
    assert report[0] == game.outcome().report(names)[0]
    # the totals in what the preset counts (tests/test_web_report.py checks the numbers)
    assert report[-1].startswith(UNIT_LINE[rules])
    assert "Download records (1)" in page.inner_text("#download2")
    if rules == "standard":
        page.screenshot(path=str(SHOTS / "hand-over.png"))
    page.close()


#: A card code (9A, 11J2, X2) or a multiplier (x2) standing free of other letters:
#: the only Latin text a Korean page may show.
CODE_OR_FACTOR = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:1[0-2]|[1-9])[BARJD]\d?|X[23]|x\d+)(?![A-Za-z0-9])")


def english_words(page) -> list[str]:
    """The Latin words of the page's visible text once card codes and factors are
    taken out; the language button (which names English in English) is left out."""
    text = page.evaluate("""() => { const b = document.body.cloneNode(true);
        b.querySelector('#lang')?.remove(); document.body.append(b);
        const t = b.innerText; b.remove(); return t; }""")
    return re.findall(r"[A-Za-z]+", CODE_OR_FACTOR.sub(" ", text))


@pytest.mark.parametrize("rules, players", PRESET_GAMES)
def test_korean_mode_shows_no_english_word_but_card_codes(server, browser, rules, players):
    """Every preset's table during a hand and its report, in Korean mode: no English
    word but the card codes (the screenshots of docs/web.md's Korean section)."""
    base, app = server
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('gostop-lang', 'ko')")
    page = ctx.new_page()
    seats = [None] + ["greedy"] * (players - 1)
    page.goto(base + create_table(base, rules, players, seats)["seats"][0]["link"])
    page.wait_for_selector("#hand img.card")
    page.wait_for_function("Object.keys(CARD_KO).length > 0")
    shot = SHOTS / f"ko-table-{rules}.png"
    play_hand(page, shot=shot)
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / f"ko-report-{rules}.png"))
    assert english_words(page) == [], page.inner_text("#report")
    # the names beside the codes, and the report in the preset's terms
    assert page.locator("figure.named figcaption").count() or page.locator("#hand img").count() == 0
    last = page.inner_text("#report").splitlines()[-1]
    assert last.startswith({"casual": "점수: ", "family": "잔액: "}.get(rules, "칩: "))
    page.click("#over")  # the table under the report, at the hand's end
    assert english_words(page) == []
    ctx.close()


def test_two_people_at_one_table_see_only_their_own_hands_and_a_reload_rejoins(server, browser):
    base, app = server
    table = create_table(base, "casual", 2, [None, None])
    pages, received = [], []
    for seat in (0, 1, None):  # the two seats, and a watcher
        ctx = browser.new_context(viewport={"width": 1100, "height": 850})
        page = ctx.new_page()
        got: list[str] = []
        page.on("websocket", lambda ws, got=got: ws.on(
            "framereceived", lambda payload, got=got: got.append(payload)))
        page.goto(base + (table["watch"] if seat is None else table["seats"][seat]["link"]))
        pages.append(page)
        received.append(got)
    for page in pages[:2]:
        page.wait_for_selector("#hand img.card")
    pages[2].wait_for_selector("#field img.card")
    assert pages[2].locator("#hand").count() == 0
    assert pages[2].evaluate("document.body.dataset.seat") == "watch"
    g = app.state.tables[table["table"]].game
    # the Korean labels, then a few moves by clicking on whichever page is to move
    pages[0].click("#lang")
    assert "바닥" in pages[0].inner_text("#field-title")
    assert "광" in pages[0].inner_text("#me")
    pages[0].screenshot(path=str(SHOTS / "table-korean.png"), full_page=True)
    for _ in range(6):
        if g.is_over():
            break
        page = pages[g.turn]
        page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=15000)
        seen = frames(page)
        click_once(page)
        page.wait_for_function(
            f"Number(document.body.dataset.frames || 0) > {seen} || "
            "document.querySelector('.field img.card.target') !== null", timeout=15000)
        if page.locator(".field img.card.target").count():  # the second click
            seen = frames(page)
            click_once(page)
            page.wait_for_function(f"Number(document.body.dataset.frames || 0) > {seen}",
                                   timeout=15000)
    for page in pages:  # every page shows the position the server holds
        page.wait_for_function(f"document.body.dataset.moves === '{len(g.move_stack)}'",
                               timeout=15000)
    # a reload rejoins the same seat with the same hand
    hand_before = pages[1].locator("#hand img.card").evaluate_all(
        "els => els.map(e => e.dataset.code)")
    pages[1].reload()
    pages[1].wait_for_selector("#hand img.card")
    assert pages[1].evaluate("document.body.dataset.seat") == "1"
    assert pages[1].locator("#hand img.card").evaluate_all(
        "els => els.map(e => e.dataset.code)") == hand_before == g.hand(1).codes()
    time.sleep(0.3)
    # every frame a seat got names no card of the other hand or the stock at that
    # moment; the watcher's, no card of either hand
    checked = 0
    for seat, got in zip((0, 1, None), received):
        for payload in got:
            msg = json.loads(payload)
            if msg.get("type") != "state":
                continue
            at = g.copy()
            while len(at.move_stack) > msg["moves"]:
                at.pop()
            hidden = set(at.stock())
            for q in (0, 1):
                if q != seat:
                    hidden |= set(at.hand(q).codes())
            assert hidden
            leaked = [c for c in hidden
                      if re.search(rf"(?<![0-9A-Z]){re.escape(c)}(?![0-9])", payload)]
            assert leaked == [], (seat, msg["moves"], leaked)
            assert msg["view"]["hand"] == (None if seat is None else at.hand(seat).codes())
            checked += 1
    assert checked >= 6
    for page in pages:
        page.context.close()


def test_the_lobby_gives_every_person_a_link(server, browser):
    base, app = server
    page = browser.new_page()
    page.goto(base + "/")
    page.select_option("#preset", "casual")
    page.select_option("#players", "3")
    page.fill("#seat1", "person")
    page.click("#create")
    page.wait_for_selector("#links a")
    links = page.locator("#links a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert len(links) == 3 and links[0] != links[1]
    assert all("token=" in link for link in links)  # the watch link has a token of its own
    table = app.state.tables[links[2].split("/t/")[1].split("?")[0]]
    assert links[2].endswith("token=" + table.watch_token)
    assert [s.bot_spec for s in table.seats] == [None, None, "greedy"]
    # each link's QR code, drawn by the server (a data: URI: no other host)
    qrs = page.locator("#links img.qr").evaluate_all("els => els.map(e => e.src)")
    assert len(qrs) == 3 and all(q.startswith("data:image/svg+xml") for q in qrs)
    page.close()


def test_the_replay_steps_through_saved_hands(server, browser):
    base, app = server
    library = saved_hands()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + "/replay")
    page.wait_for_selector("#field img.card")
    last = len(library.records[0].decisions)
    assert page.inner_text("#step") == f"0/{last}"
    for _ in range(3):
        page.click("#fwd")
    assert page.inner_text("#step") == f"3/{last}"
    assert page.inner_text("#prompt").startswith(library.records[0].names[
        library.records[0].decisions[2].seat])
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
    page.click("#end")
    report = page.inner_text("#report").splitlines()
    assert report[0] == library.records[0].outcome["report"][0]
    assert report[-1].startswith("chips: ")  # a standard hand, for chips
    page.select_option("#games", "1")
    page.wait_for_function("document.getElementById('step').textContent.startsWith('0/')")
    page.close()


def test_a_card_matching_two_field_cards_asks_which_on_the_board(browser):
    """Standard rules, the deal of seed 7: 10J2 in seat 0's hand matches 10A and
    10J1 on the field."""
    app = create_app(move_delay=0.02, seed=7)
    with serving(app) as base:
        table = create_table(base, "standard", 2, [None, "greedy"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + table["seats"][0]["link"])
        page.wait_for_selector("#hand img.card.playable")
        page.click('#hand img.card[data-code="10J2"]')
        targets = page.locator(".field img.card.target").evaluate_all(
            "els => els.map(e => e.dataset.code)")
        assert sorted(targets) == ["10A", "10J1"]
        assert "10J2" in page.inner_text("#prompt")
        g = app.state.tables[table["table"]].game
        assert g.move_stack == []  # nothing is sent before the second click
        page.click('.field img.card[data-code="10A"]')
        page.wait_for_function("Number(document.body.dataset.frames) > 1")
        assert str(g.move_stack[0]) == "10J2/10A"
        page.close()


def test_the_hint_button_lists_every_legal_move(server, browser):
    base, app = server
    table = create_table(base, "standard", 2, [None, "greedy"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + table["seats"][0]["link"])
    page.wait_for_selector("#hand img.card.playable")
    page.click("#hint-button")
    page.wait_for_selector("#hint-list li")
    shown = page.locator("#hint-list li").evaluate_all("els => els.map(e => e.dataset.move)")
    g = app.state.tables[table["table"]].game
    assert shown == [str(r.move) for r in quick_hint(g.view(0))]
    page.screenshot(path=str(SHOTS / "hint.png"), full_page=True)
    page.close()



def test_a_phone_joins_by_the_qr_link_and_plays_a_hand_on_one_screen(browser):
    """A table of a LAN server (the machine's own host names), joined from a 390 px
    phone by the link its QR code holds: the field and the hand fit on the
    screen, each card at least 44 px wide, and the hand is played to the end; no
    request of the page goes to any host but the server."""
    import segno
    from gostop_web.security import machine_hosts
    app = create_app(move_delay=0.02, seed=7, trusted_hosts=machine_hosts("0.0.0.0"))
    with serving(app) as base:
        req = urllib.request.Request(
            base + "/api/tables", method="POST",
            data=json.dumps({"rules": "standard", "players": 2,
                             "seats": [None, "greedy"]}).encode(),
            headers={"Content-Type": "application/json", "Origin": base})
        with urllib.request.urlopen(req, timeout=10) as r:
            table = json.load(r)
        link = base + table["seats"][0]["link"]
        assert table["seats"][0]["qr"] == segno.make(link, error="m").svg_data_uri(
            scale=3, border=2)  # the QR code holds the seat's link
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
        page = ctx.new_page()
        requested = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(link)
        page.wait_for_selector("#hand img.card")
        shot = SHOTS / "table-phone.png" if SHOTS else None
        if shot:
            page.wait_for_timeout(300)
            page.screenshot(path=str(shot))
        for selector in ("#field", "#hand"):
            box = page.locator(selector).bounding_box()
            assert box["y"] + box["height"] <= 844, selector  # no scrolling to reach it
        widths = page.locator("#hand img.card").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().width)")
        assert widths and min(widths) >= 44
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        play_hand(page, limit=60)
        ctx.close()
    from urllib.parse import urlsplit
    elsewhere = [u for u in requested
                 if not u.startswith("data:") and urlsplit(u).netloc != urlsplit(base).netloc]
    assert requested and elsewhere == []
