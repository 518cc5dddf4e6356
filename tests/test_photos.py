"""Photo uploads: only real images get through, re-encoded small and with no metadata left."""

from __future__ import annotations

import hashlib
import io
import random
import struct
import warnings
import zipfile

import pytest
from helpers import png_header_only
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ExifTags, Image, ImageCms, ImageFile, PngImagePlugin, features

from portal.intake.photos import MAX_LONG_SIDE, MAX_UPLOAD_BYTES, Photo, PhotoError, process_photo

EMPTY = "The file is empty. Choose a photo to attach."
NOT_A_PHOTO = "This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image."
TOO_LARGE = "This photo is larger than 10 MB. Attach a smaller photo, or a screenshot of it."
TOO_MANY_PIXELS = (
    "This image is too big for us to process. Attach a smaller photo, or a screenshot of it."
)
HEIC = (
    "This photo is in the HEIC format, which we cannot read. Attach a screenshot of it, "
    "or set your camera to save photos as JPEG "
    '(on an iPhone: Settings > Camera > Formats > "Most Compatible").'
)
SCRIPT = b"<script>alert(1)</script>"
METADATA_KEYS = ("exif", "icc_profile", "xmp", "XML:com.adobe.xmp", "comment")


# --- building test images ------------------------------------------------------------------


def encode(image: Image.Image, fmt: str, **params) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


def solid(fmt: str, size=(300, 200), mode: str = "RGB", color="red", **params) -> bytes:
    """A one-colour image in the given format."""
    return encode(Image.new(mode, size, color), fmt, **params)


def noise(size: tuple[int, int], mode: str = "RGB", seed: int = 0) -> Image.Image:
    """Incompressible pixels, so a cut file loses real image data, not just padding."""
    channels = len(Image.new(mode, (1, 1)).getbands())
    raw = random.Random(seed).randbytes(size[0] * size[1] * channels)
    return Image.frombytes(mode, size, raw)


def ftyp(major: bytes, compatible: list[bytes]) -> bytes:
    """The start of an ISO-BMFF file (HEIC, AVIF) with the given brands, and some padding."""
    body = b"ftyp" + major + b"\x00\x00\x00\x00" + b"".join(compatible)
    return struct.pack(">I", len(body) + 4) + body + b"\x00" * 200


def phone_photo(orientation: int = 6) -> bytes:
    """A 4000 x 3000 JPEG carrying what a phone adds: GPS, make, model, ICC, XMP and a comment.

    The stored top-left quadrant is red and the rest blue, to tell where rotation put it.
    """
    image = Image.new("RGB", (4000, 3000), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 2000, 1500))
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMakerCo"
    exif[ExifTags.Base.Model] = "Pocket 15 Pro"
    exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.DateTime] = "2025:06:01 07:45:12"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (40.0, 42.0, 46.08)
    gps[ExifTags.GPS.GPSLongitudeRef] = "W"
    gps[ExifTags.GPS.GPSLongitude] = (74.0, 0.0, 21.5)
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return encode(
        image,
        "JPEG",
        exif=exif,
        icc_profile=srgb,
        xmp=b"<x:xmpmeta><rdf:Description exif:GPSLatitude='40,42.768N'/></x:xmpmeta>",
        comment=b"taken at 12 Elm Street",
    )


def transparent_corner(mode: str) -> Image.Image:
    """A 300 x 200 green image whose top-left 100 x 100 is fully transparent."""
    image = Image.new("RGBA", (300, 200), (0, 128, 0, 255))
    image.paste((0, 0, 0, 0), (0, 0, 100, 100))
    return image if mode == "RGBA" else image.convert(mode)


def animated_gif() -> bytes:
    frames = [Image.new("RGB", (120, 80), color) for color in ("red", "lime", "blue")]
    return encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)


def mpo() -> bytes:
    """Two JPEG frames in one file, as phones write for depth or burst shots."""
    first, second = Image.new("RGB", (200, 100), "red"), Image.new("RGB", (200, 100), "blue")
    return encode(first, "MPO", save_all=True, append_images=[second])


def gray16_png() -> bytes:
    image = Image.new("I;16", (64, 64), 30_000)  # mid grey at 16 bits
    return encode(image, "PNG")


def padded_to(data: bytes, total: int) -> bytes:
    """Trailing bytes after the image's end marker: decoders ignore them."""
    return data + b"\x00" * (total - len(data))


def load_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any pixel decoding fail the test loudly (AssertionError is never caught)."""

    def refuse(self, *args, **kwargs):
        raise AssertionError("load() was called on an image that should be refused unread")

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)
    monkeypatch.setattr(Image.Image, "load", refuse)


def assert_clean(photo: Photo) -> Image.Image:
    """The output is a plain JPEG with no metadata, and its fields describe it; returns it."""
    assert photo.content_type == "image/jpeg"
    assert photo.sha256 == hashlib.sha256(photo.data).hexdigest()
    out = Image.open(io.BytesIO(photo.data))
    assert out.format == "JPEG"
    assert out.size == (photo.width, photo.height)
    assert max(out.size) <= MAX_LONG_SIDE
    assert not out.getexif()
    assert not [key for key in METADATA_KEYS if key in out.info]
    assert b"Exif\x00\x00" not in photo.data
    assert b"ICC_PROFILE" not in photo.data
    assert b"http://ns.adobe.com/xap/1.0/" not in photo.data
    out.load()
    return out


# --- the phone photo -----------------------------------------------------------------------


def test_phone_photo_is_upright_small_and_has_no_metadata_left():
    source = phone_photo(orientation=6)
    # The source really carries what we mean to remove.
    original = Image.open(io.BytesIO(source))
    assert original.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    assert {"exif", "icc_profile", "xmp", "comment"} <= original.info.keys()

    photo = process_photo(source, "IMG_0042.JPG")

    out = assert_clean(photo)
    # Orientation 6 means "turn 90 degrees clockwise to view": 4000 x 3000 stored is portrait.
    assert (photo.width, photo.height) == (1200, 1600)
    # The stored top-left (red) quadrant is now top-right.
    assert out.getpixel((photo.width - 50, 50))[0] > 200
    assert out.getpixel((50, 50))[2] > 200
    for leak in (b"PhoneMakerCo", b"Pocket 15 Pro", b"2025:06:01", b"Elm Street", b"42.768"):
        assert leak not in photo.data


def test_landscape_photo_without_orientation_keeps_its_shape():
    photo = process_photo(phone_photo(orientation=1))
    assert (photo.width, photo.height) == (1600, 1200)


def test_script_in_exif_description_is_accepted_and_gone():
    exif = Image.Exif()
    exif[ExifTags.Base.ImageDescription] = SCRIPT.decode()
    source = solid("JPEG", (640, 480), exif=exif)
    assert SCRIPT in source

    photo = process_photo(source, "photo.jpg")

    assert_clean(photo)
    assert b"<script" not in photo.data
    assert b"alert(1)" not in photo.data


def gps_exif() -> Image.Exif:
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMakerCo"
    exif.get_ifd(ExifTags.IFD.GPSInfo)[ExifTags.GPS.GPSLatitudeRef] = "N"
    return exif


def png_with_text() -> bytes:
    text = PngImagePlugin.PngInfo()
    text.add_text("Comment", "taken at 12 Elm Street")
    text.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>PhoneMakerCo</x:xmpmeta>")
    return solid("PNG", pnginfo=text, exif=gps_exif())


@pytest.mark.parametrize(
    "source",
    [
        # Small, upright and without ICC: nothing in the pipeline rebuilds the image by chance.
        pytest.param(
            lambda: solid(
                "JPEG",
                comment=b"taken at 12 Elm Street",
                xmp=b"<x>PhoneMakerCo</x>",
                exif=gps_exif(),
            ),
            id="jpeg-comment-xmp-exif",
        ),
        pytest.param(png_with_text, id="png-text-chunks-exif"),
        pytest.param(
            lambda: solid("WEBP", exif=gps_exif(), xmp=b"<x>PhoneMakerCo</x>"), id="webp-exif-xmp"
        ),
    ],
)
def test_metadata_is_dropped_even_when_the_image_needs_no_changes(source):
    photo = process_photo(source())
    assert_clean(photo)
    assert b"Elm Street" not in photo.data
    assert b"PhoneMakerCo" not in photo.data


def test_broken_icc_profile_is_ignored_not_refused():
    source = solid("JPEG", icc_profile=b"not a profile" * 20)
    assert_clean(process_photo(source))


# --- accepted formats ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "size"),
    [
        pytest.param(lambda: solid("JPEG", (50, 40)), (50, 40), id="small-jpeg-not-upscaled"),
        pytest.param(lambda: solid("JPEG", mode="L", color=90), (300, 200), id="greyscale-jpeg"),
        pytest.param(
            lambda: solid("JPEG", mode="CMYK", color=(0, 200, 200, 0)), (300, 200), id="cmyk-jpeg"
        ),
        pytest.param(
            lambda: encode(noise((300, 200)), "JPEG", progressive=True),
            (300, 200),
            id="progressive-jpeg",
        ),
        pytest.param(mpo, (200, 100), id="mpo-multi-picture-jpeg"),
        pytest.param(lambda: solid("PNG"), (300, 200), id="png"),
        pytest.param(lambda: solid("PNG", mode="P", color=3), (300, 200), id="palette-png"),
        pytest.param(lambda: solid("WEBP"), (300, 200), id="webp"),
        pytest.param(lambda: solid("WEBP", lossless=True), (300, 200), id="lossless-webp"),
        pytest.param(lambda: solid("GIF"), (300, 200), id="gif"),
        pytest.param(lambda: solid("PNG", (4000, 1000)), (1600, 400), id="wide-png-shrunk"),
        pytest.param(lambda: solid("JPEG", (2, 5000)), (1, 1600), id="sliver-jpeg"),
        pytest.param(lambda: solid("PNG", (1, 3000)), (1, 1600), id="sliver-png"),
        pytest.param(lambda: solid("PNG", (1600, 1600)), (1600, 1600), id="exactly-the-limit"),
    ],
)
def test_accepted(source, size):
    photo = process_photo(source())
    assert_clean(photo)
    assert (photo.width, photo.height) == size


@pytest.mark.parametrize(
    ("fmt", "mode"),
    [
        ("PNG", "RGBA"),
        ("PNG", "LA"),
        ("PNG", "P"),
        ("WEBP", "RGBA"),
        ("GIF", "RGBA"),  # the GIF writer turns alpha into a transparent palette entry
    ],
)
def test_transparency_is_flattened_onto_white(fmt, mode):
    source = encode(transparent_corner(mode), fmt, **({"lossless": True} if fmt == "WEBP" else {}))
    out = assert_clean(process_photo(source))
    assert min(out.getpixel((20, 20))) > 240  # was transparent: now white
    assert max(out.getpixel((250, 150))) < 150  # was opaque green (grey in LA): not whitened


def test_gif_keeps_only_the_first_frame():
    out = assert_clean(process_photo(animated_gif()))
    red, green, blue = out.getpixel((60, 40))
    assert red > 200 and green < 60 and blue < 60


def test_16_bit_grey_png_is_not_washed_out_to_white():
    out = assert_clean(process_photo(gray16_png()))
    assert 100 < out.getpixel((32, 32))[0] < 140  # 30000 / 65535 of full scale


def test_format_comes_from_the_bytes_not_the_name():
    # PNG bytes under a JPEG name (and alpha, which only the PNG reading would handle).
    source = encode(transparent_corner("RGBA"), "PNG")
    out = assert_clean(process_photo(source, "photo.jpg"))
    assert min(out.getpixel((20, 20))) > 240


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(
            b"<html><body><script>alert(document.cookie)</script></body></html>", id="html"
        ),
        pytest.param(b"/*" + SCRIPT + b"*/;alert(document.domain);", id="javascript"),
    ],
)
def test_polyglot_gif_is_reencoded_without_the_payload(payload):
    source = solid("GIF") + payload
    assert payload in source

    photo = process_photo(source, "innocent.gif")

    assert_clean(photo)
    assert b"alert(" not in photo.data
    assert b"<script" not in photo.data and b"<html" not in photo.data


def test_gif_with_zip_appended_is_reencoded_without_the_archive():
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("payload.html", SCRIPT.decode())
    source = solid("GIF") + archive.getvalue()

    photo = process_photo(source)

    assert b"PK\x03\x04" not in photo.data
    assert b"payload.html" not in photo.data


def test_upload_of_exactly_the_limit_is_accepted():
    source = padded_to(solid("PNG"), MAX_UPLOAD_BYTES)
    assert_clean(process_photo(source))


# --- refused ---------------------------------------------------------------------------------


def zip_holding_a_photo() -> bytes:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("photo.jpg", solid("JPEG"))
    return archive.getvalue()


def truncated_jpeg() -> bytes:
    whole = encode(noise((256, 256)), "JPEG", quality=95)
    return whole[: len(whole) // 2]


def avif() -> bytes:
    if not features.check("avif"):
        pytest.skip("this Pillow cannot write AVIF")
    return solid("AVIF")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        pytest.param(lambda: b"", EMPTY, id="empty"),
        pytest.param(lambda: b"Dear council, photo attached.\n", NOT_A_PHOTO, id="text-named-jpg"),
        pytest.param(
            lambda: b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            NOT_A_PHOTO,
            id="svg-with-script",
        ),
        pytest.param(
            lambda: (
                b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
            ),
            NOT_A_PHOTO,
            id="svg-xml",
        ),
        pytest.param(
            lambda: b"<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>",
            NOT_A_PHOTO,
            id="html",
        ),
        pytest.param(
            lambda: b"<html>" + solid("GIF"),
            NOT_A_PHOTO,
            id="html-then-gif",
        ),
        pytest.param(
            lambda: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n",
            NOT_A_PHOTO,
            id="pdf",
        ),
        pytest.param(
            lambda: b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n",
            NOT_A_PHOTO,
            id="eps-never-reaches-ghostscript",
        ),
        pytest.param(zip_holding_a_photo, NOT_A_PHOTO, id="zip-holding-a-photo"),
        pytest.param(truncated_jpeg, NOT_A_PHOTO, id="truncated-jpeg"),
        pytest.param(lambda: b"\xff\xd8\xff\xe0", NOT_A_PHOTO, id="jpeg-magic-only"),
        pytest.param(lambda: b"\x89PNG\r\n\x1a\n", NOT_A_PHOTO, id="png-signature-only"),
        pytest.param(lambda: png_header_only(0, 10), NOT_A_PHOTO, id="png-zero-width"),
        pytest.param(lambda: solid("BMP"), NOT_A_PHOTO, id="bmp"),
        pytest.param(lambda: solid("TIFF"), NOT_A_PHOTO, id="tiff"),
        pytest.param(lambda: solid("ICO"), NOT_A_PHOTO, id="ico"),
        pytest.param(avif, NOT_A_PHOTO, id="avif"),
        pytest.param(
            lambda: ftyp(b"avif", [b"mif1", b"avif", b"miaf"]), NOT_A_PHOTO, id="avif-header"
        ),
        pytest.param(lambda: ftyp(b"heic", [b"mif1", b"heic"]), HEIC, id="heic-iphone"),
        pytest.param(lambda: ftyp(b"mif1", [b"mif1", b"heic"]), HEIC, id="heif-mif1-heic"),
        pytest.param(lambda: b"\xff\xd8" + b"\x00" * MAX_UPLOAD_BYTES, TOO_LARGE, id="over-10-mb"),
        pytest.param(
            lambda: padded_to(solid("PNG"), MAX_UPLOAD_BYTES + 1),
            TOO_LARGE,
            id="valid-png-one-byte-over",
        ),
    ],
)
def test_refused(source, message):
    with pytest.raises(PhotoError) as refused:
        process_photo(source(), "photo.jpg")
    assert str(refused.value) == message


def test_too_large_message_names_the_limit():
    assert "10 MB" in TOO_LARGE


@pytest.mark.parametrize(
    ("width", "height"),
    [
        pytest.param(50_000, 50_000, id="2500-megapixels"),  # Pillow's own open() refuses it
        pytest.param(20_000, 20_000, id="400-megapixels"),  # also beyond Pillow's hard limit
        pytest.param(10_000, 9_000, id="90-megapixels"),  # Pillow would only warn: made an error
        pytest.param(8_000, 8_000, id="64-megapixels"),  # under Pillow's limits: our own check
        pytest.param(7_000, 7_000, id="49-megapixels"),  # the review's 200 KB PNG
        pytest.param(8_000, 5_001, id="just-over-40-megapixels"),
    ],
)
def test_bomb_headers_are_refused_without_decoding(monkeypatch, width, height):
    load_forbidden(monkeypatch)
    with pytest.raises(PhotoError) as refused:
        process_photo(png_header_only(width, height), "bomb.png")
    assert str(refused.value) == TOO_MANY_PIXELS


def test_refusals_leave_pillow_and_warnings_settings_alone():
    pillow_limit = Image.MAX_IMAGE_PIXELS
    filters = list(warnings.filters)
    for source in (png_header_only(10_000, 9_000), png_header_only(50_000, 50_000), b"text"):
        with pytest.raises(PhotoError):
            process_photo(source)
    assert pillow_limit == Image.MAX_IMAGE_PIXELS
    assert warnings.filters == filters
    assert not ImageFile.LOAD_TRUNCATED_IMAGES


def test_photo_error_is_a_value_error():
    assert issubclass(PhotoError, ValueError)


# --- hostile bytes never escape as anything but PhotoError -----------------------------------

SMALL_SOURCES = {
    "jpeg": encode(noise((32, 24)), "JPEG"),
    "progressive-jpeg": encode(noise((32, 24)), "JPEG", progressive=True),
    "png": encode(noise((32, 24), "RGBA"), "PNG"),
    "webp": encode(noise((32, 24)), "WEBP"),
    "gif": animated_gif(),
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(SMALL_SOURCES)),
    edits=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=8),
    keep=st.floats(0.05, 1),
)
def test_corrupted_images_are_either_cleaned_or_refused(name, edits, keep):
    data = bytearray(SMALL_SOURCES[name])
    for where, value in edits:
        data[int(where * len(data))] = value
    data = bytes(data[: max(1, int(len(data) * keep))])
    try:
        photo = process_photo(data)
    except PhotoError as refused:
        assert str(refused) in (NOT_A_PHOTO, TOO_MANY_PIXELS, HEIC)
    else:
        assert_clean(photo)
