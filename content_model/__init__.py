"""The municipality's content as one validated model, read by both apps.

`loader` reads `content/` (or another municipality's folder) into plain dataclasses and
names the file and field of anything wrong; `theme` is the shared look both apps render
with: the templates folder, fingerprinted assets, Markdown and the citation filter.
"""

from content_model.fields import CONTENT_DIR, ContentError
from content_model.loader import Content, load_content

__all__ = ["CONTENT_DIR", "Content", "ContentError", "load_content"]
