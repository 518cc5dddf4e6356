"""The portal with a profiler around every request, for `python -m bench profile` only:
gunicorn serves it like the portal, and the worker writes its stats as it exits."""

from __future__ import annotations

import atexit
import cProfile
import os

from flask import Flask

from portal import create_app as create_portal


def create_app() -> Flask:
    app = create_portal()
    profile = cProfile.Profile()
    serve = app.wsgi_app

    def profiled(environ, start_response):
        profile.enable()
        try:
            return serve(environ, start_response)
        finally:
            profile.disable()

    app.wsgi_app = profiled
    atexit.register(profile.dump_stats, os.environ["BENCH_PROFILE"])
    return app
