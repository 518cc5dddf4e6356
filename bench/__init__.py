"""Figures about the product (page weights, timings), printed by `python -m bench`.

Measurements, not tests: nothing here passes or fails on time.
"""
