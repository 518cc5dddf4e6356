"""The release notification of §§ 216-12: its pages (views), forms, choices and record."""
