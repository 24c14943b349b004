"""Names and titles people typed show in the browser exactly as typed: a name that looks like
HTML shows as those characters (and runs nothing), and ``Tom &amp; Jerry`` shows as
``Tom &amp; Jerry``, not ``Tom & Jerry``, in the lobby's room list, on the join screen and at
the table. The server sends plain text; the page must neither parse nor decode it."""

from __future__ import annotations

from typing import Any

from .browser_steps import wait_until

IMG = "<img src=x onerror=f(1)>"  # 24 characters: a whole name, not cut
TOM = "Tom &amp; Jerry"
TITLE = "<b>Fish</b> &amp; chips"


def room_with_names(server: Any) -> str:
    made = server.post(
        "/api/rooms", {"preset": "palm", "seats": ["human"] * 4, "title": TITLE, "deals": 1}
    )
    code = str(made["code"])
    server.post(f"/api/rooms/{code}/join", {"name": IMG, "seat": 1})
    server.post(f"/api/rooms/{code}/join", {"name": TOM, "seat": 2})
    return code


def watched(page: Any) -> Any:
    """A page where the name's onerror, if it ever ran, would leave a mark."""
    page.add_init_script("window.f = () => { window.ran = true; };")
    return page


def test_typed_names_show_literally_in_the_lobby_and_at_the_table(
    new_page: Any, server: Any
) -> None:
    code = room_with_names(server)
    page = watched(new_page())
    page.goto("/")
    item = page.locator(f".room[data-code='{code}']")
    item.wait_for()
    listed = item.inner_text()
    assert IMG in listed and TOM in listed and TITLE in listed, listed
    # The join screen, then the table once seated.
    page.goto(f"/#/t/{code}")
    page.wait_for_selector("[data-sit]")
    joining = page.locator(".panel.join").inner_text()
    assert IMG in joining and TOM in joining and TITLE in joining, joining
    page.fill("input[name=name]", "Ann")
    page.locator("[data-sit='0']").click()
    page.wait_for_selector(".table-view[data-ready]")
    table = page.locator(".table-view")
    wait_until(lambda: IMG in table.inner_text() and TOM in table.inner_text())
    assert TITLE in table.inner_text()
    # Shown as text: no element was made of a name, and nothing ran.
    assert page.locator("img[src=x]").count() == 0
    assert page.evaluate("() => window.ran === undefined")
