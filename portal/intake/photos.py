"""Checking and cleaning residents' photo uploads: real images only, resized, with no metadata."""

from __future__ import annotations

import hashlib
import struct
import warnings
from dataclasses import dataclass
from io import BytesIO

from flask_babel import gettext
from PIL import Image, ImageCms, ImageOps

from content_model.site import N_

MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # as sent, per photo
# The longest side a photo is kept at. The form tells the browser (static/js/report.js),
# which makes photos this size before sending: a pixel the server would drop anyway is
# never sent over a weak signal.
MAX_LONG_SIDE = 1600
# Refused from the header alone, before any pixel is decoded: decompression bombs, and the
# 7000x7000 PNG (49 MP, 200 KB sent) that held a worker for seconds. A 40 MP phone photo
# (the largest sensors) still passes; everything is decoded in a child process with a
# deadline (portal/intake/decoder.py).
MAX_SOURCE_PIXELS = 40_000_000
# What the browser aims for when it re-encodes a photo: about this size at a good quality
# (a 12-megapixel phone photo usually gets there at once), and never more than the limit,
# lowering the quality (then the size) for photos of grass, gravel or leaves that stay heavy.
SEND_TARGET_BYTES = 400 * 1024
SEND_LIMIT_BYTES = 1024 * 1024

# Only these decoders ever see an upload: Pillow can open many more formats (EPS even runs
# Ghostscript), and every extra parser is extra attack surface for no benefit to residents.
_OPEN_FORMATS = ("JPEG", "PNG", "WEBP", "GIF")
# Phones that store a depth map or a second frame write MPO, which the JPEG decoder reports
# under that name; its first frame is an ordinary JPEG.
_ACCEPTED_FORMATS = frozenset({*_OPEN_FORMATS, "MPO"})
# ISO-BMFF brands that mean HEIF/HEIC (iPhone and some Android cameras), not AVIF.
_HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs"})
# Everything a hostile or broken file has been seen to make Pillow's decoders raise.
_DECODE_ERRORS = (
    OSError,  # includes UnidentifiedImageError and "image file is truncated"
    SyntaxError,
    ValueError,
    TypeError,
    struct.error,
    EOFError,
    IndexError,
    KeyError,
    ZeroDivisionError,
)
_WHITE = (255, 255, 255)
_JPEG_QUALITY = 82

# The messages are English here (the decoding process has no request, and sends its
# message back as text); PhotoError.translated() shows them in the page's language.
_EMPTY = N_("The file is empty. Choose a photo to attach.")
_TOO_LARGE = N_(
    "This photo is larger than %(megabytes)s MB. Attach a smaller photo, or a screenshot of it."
)
_NOT_A_PHOTO = N_("This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image.")
_TOO_MANY_PIXELS = N_(
    "This image is too big for us to process. Attach a smaller photo, or a screenshot of it."
)
_HEIC = N_(
    "This photo is in the HEIC format, which we cannot read. Attach a screenshot of it, "
    "or set your camera to save photos as JPEG "
    '(on an iPhone: Settings > Camera > Formats > "Most Compatible").'
)


class PhotoError(ValueError):
    """Not an acceptable photo; str(error) is the plain message in English, translated()
    the same in the page's language, shown next to the field."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message % _VALUES)

    def translated(self) -> str:
        return gettext(self.message, **_VALUES)


# The numbers a message names (%(megabytes)s).
_VALUES = {"megabytes": MAX_UPLOAD_BYTES // (1024 * 1024)}


@dataclass(frozen=True)
class Photo:
    """A cleaned photo, ready to store: re-encoded, at most MAX_LONG_SIDE, with no metadata."""

    data: bytes  # the re-encoded image
    content_type: str
    width: int
    height: int
    sha256: str  # hex digest of data


def process_photo(data: bytes, filename: str = "") -> Photo:
    """Check one upload and return it re-encoded as a clean JPEG, or raise PhotoError."""
    # `filename` is deliberately unused for any decision: the type comes from the bytes alone.
    if not data:
        raise PhotoError(_EMPTY)
    if len(data) > MAX_UPLOAD_BYTES:
        raise PhotoError(_TOO_LARGE)
    # Turned into errors only inside this block, so other code keeps Pillow's global settings.
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        # Pillow warns about each corrupt EXIF block or MPO index; uploaders control those bytes,
        # so they must not be able to write to the server log at will.
        warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")
        try:
            image = _decode(data)
        except PhotoError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PhotoError(_TOO_MANY_PIXELS) from None
        except _DECODE_ERRORS:
            raise PhotoError(_HEIC if _is_heif(data) else _NOT_A_PHOTO) from None
    return _encode(image)


def _decode(data: bytes) -> Image.Image:
    """Open, size-check and decode the first frame, upright, in sRGB, flattened and resized."""
    # Image.open only reads the header, so the pixel count is known before anything is decoded.
    image = Image.open(BytesIO(data), formats=_OPEN_FORMATS)
    if image.format not in _ACCEPTED_FORMATS:
        raise PhotoError(_NOT_A_PHOTO)
    width, height = image.size
    if width < 1 or height < 1:
        raise PhotoError(_NOT_A_PHOTO)
    if width * height > MAX_SOURCE_PIXELS:
        raise PhotoError(_TOO_MANY_PIXELS)
    icc_profile = image.info.get("icc_profile")
    long_side = max(width, height)
    if long_side > MAX_LONG_SIDE:
        # JPEG can decode at 1/2, 1/4 or 1/8 scale: ask for the size we keep, and the decoder
        # picks the smallest scale still at least that big, so it never makes more pixels
        # than the final resize needs (a 12 MP phone photo decodes at 3 MP). No-op otherwise.
        factor = MAX_LONG_SIDE / long_side
        image.draft(None, (max(1, round(width * factor)), max(1, round(height * factor))))
    image.load()
    image = _reduced(image)
    image = _upright(image)
    image = _to_rgb(image)
    image = _to_srgb(image, icc_profile)
    image.thumbnail((MAX_LONG_SIDE, MAX_LONG_SIDE), Image.Resampling.LANCZOS)
    return image


# Modes Image.reduce works on; others (palette, 1-bit, 16-bit) are converted first.
_REDUCIBLE = frozenset({"L", "LA", "RGB", "RGBA", "RGBa", "La", "I", "F", "CMYK", "PA"})


def _reduced(image: Image.Image) -> Image.Image:
    """PNG, WebP and GIF have no draft mode: once decoded, shrink by a whole factor (box
    averaging, fast) to no less than twice the size kept, so the colour conversions and
    the final resize work on a few megapixels instead of forty."""
    factor = max(image.size) // (2 * MAX_LONG_SIDE)
    if factor < 2:
        return image
    if image.mode not in _REDUCIBLE:
        image = _to_rgb(image)
    smaller = image.reduce(factor)
    # reduce() keeps the mode but not the info: the orientation still has to be applied.
    smaller.info = {k: v for k, v in image.info.items() if k in ("exif", "transparency")}
    return smaller


def _upright(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation, so a portrait phone photo stays portrait once EXIF is gone."""
    try:
        return ImageOps.exif_transpose(image)
    except _DECODE_ERRORS:
        # Broken EXIF in an otherwise readable photo: keep the photo as stored.
        return image


def _to_rgb(image: Image.Image) -> Image.Image:
    """Convert any mode to RGB, flattening transparency onto white (JPEG has no alpha)."""
    if image.mode in ("I", "I;16", "I;16L", "I;16B", "I;16N"):
        # 16-bit greyscale PNG: a plain convert clips every value above 255 to white.
        image = image.convert("I").point(lambda value: value / 256).convert("L")
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info:
        background = Image.new("RGBA", image.size, _WHITE)
        background.alpha_composite(image.convert("RGBA"))
        image = background
    return image.convert("RGB")


def _to_srgb(image: Image.Image, icc_profile: bytes | None) -> Image.Image:
    """Convert colours from the photo's own profile (often Display P3) before the profile goes."""
    if not icc_profile:
        return image
    try:
        source = ImageCms.ImageCmsProfile(BytesIO(icc_profile))
        converted = ImageCms.profileToProfile(
            image, source, ImageCms.createProfile("sRGB"), outputMode="RGB"
        )
    except (ImageCms.PyCMSError, *_DECODE_ERRORS):
        # A broken or non-RGB profile: the colours may be slightly off, the photo is still fine.
        return image
    return converted if converted is not None else image


def _encode(image: Image.Image) -> Photo:
    """Save as progressive JPEG from a fresh image, so no metadata can ride along."""
    # A copy through raw pixels has an empty `info`: Pillow's JPEG writer falls back to the
    # image's own info["comment"], so saving the decoded image itself would leak it.
    clean = Image.frombytes("RGB", image.size, image.tobytes())
    out = BytesIO()
    clean.save(out, "JPEG", quality=_JPEG_QUALITY, optimize=True, progressive=True)
    data = out.getvalue()
    return Photo(
        data=data,
        content_type="image/jpeg",
        width=clean.width,
        height=clean.height,
        sha256=hashlib.sha256(data).hexdigest(),
    )


def _is_heif(data: bytes) -> bool:
    """True for an ISO-BMFF file whose `ftyp` box names a HEIF/HEIC brand."""
    if data[4:8] != b"ftyp":
        return False
    box_size = int.from_bytes(data[:4], "big")
    brands = data[8 : min(max(box_size, 16), 256)]
    # Major brand, minor version (skipped), then compatible brands, all four bytes each.
    candidates = [brands[:4]] + [brands[i : i + 4] for i in range(8, len(brands), 4)]
    return any(brand in _HEIF_BRANDS for brand in candidates)


# ------------------------------------------------------------------ the decoding process
# portal/intake/decoder.py runs this file as a child process (python photos.py): only the
# standard library and Pillow are imported, so it starts in a fraction of a second. Each
# request on stdin is a 4-byte big-endian length and the upload; each answer on stdout is
# b"o" + width, height, length (4 bytes each) + the clean JPEG, or b"e" + length + message.

# A decode may use this much address space at most; past it Pillow fails (MemoryError)
# and the photo is refused, instead of the machine swapping.
CHILD_MEMORY = 1536 * 1024 * 1024
_FRAME = struct.Struct(">I")


def _read_exactly(stream, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(requests, answers) -> None:
    """Clean photos from `requests` until it closes (the worker went away)."""
    while True:
        header = _read_exactly(requests, _FRAME.size)
        data = _read_exactly(requests, _FRAME.unpack(header)[0]) if header else None
        if data is None:
            return
        try:
            photo = process_photo(data)
        except PhotoError as error:
            answer = b"e" + _frame(error.message.encode())  # translated by the worker
        except MemoryError:
            answer = b"e" + _frame(_TOO_MANY_PIXELS.encode())
        else:
            answer = b"o" + struct.pack(">II", photo.width, photo.height) + _frame(photo.data)
        answers.write(answer)
        answers.flush()


def _frame(data: bytes) -> bytes:
    return _FRAME.pack(len(data)) + data


if __name__ == "__main__":
    import os
    import resource
    import sys

    # Behind every web request for the CPU, and never more than CHILD_MEMORY.
    os.nice(10)
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    serve(sys.stdin.buffer, sys.stdout.buffer)
