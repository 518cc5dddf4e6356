"""A phone photo made smaller in the browser: the report form's resizing of a 12-megapixel
JPEG, in Chromium on a 360 px phone profile with the CPU slowed four times (CDP
Emulation.setCPUThrottlingRate), from choosing the file to its thumbnail and size showing."""

from __future__ import annotations

import logging
import statistics
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

from bench.portal import phone_photo
from portal import create_app

CHROMIUM = "/usr/bin/chromium"
THROTTLE = 4
# Started by the page's own listener, so file transfer from the test driver is not counted.
TIMER = """() => {
  const input = document.getElementById('photos');
  window.resized = new Promise((done) => {
    let started;
    input.addEventListener('change', () => { started = performance.now(); }, { capture: true });
    new MutationObserver(() => {
      if (document.querySelector('.photo-list li')) done(performance.now() - started);
    }).observe(document.getElementById('photos').parentElement, { childList: true, subtree: true });
  });
}"""


def run(repeat: int = 3) -> None:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"Photo resizing in the browser: skipped ({CHROMIUM} is not installed)")
        return
    photo = phone_photo()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite3"), "MAP_TILE_URL": ""})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                times = [_once(browser, server.server_port, photo) for _ in range(repeat)]
                browser.close()
        finally:
            server.shutdown()
            thread.join()
    print(
        f"Resize a 4032 x 3024 JPEG ({len(photo) / 1024 / 1024:.1f} MB) in Chromium at"
        f" {THROTTLE}x CPU throttling, 360 px phone: median {statistics.median(times):.0f} ms,"
        f" max {max(times):.0f} ms over {repeat} (target under 1500 ms)"
    )


def _once(browser, port: int, photo: bytes) -> float:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/report/")
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    page.evaluate(TIMER)
    page.set_input_files(
        "#photos", files=[{"name": "phone.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    elapsed = page.evaluate("() => window.resized")
    context.close()
    return elapsed
