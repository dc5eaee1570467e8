"""The page's own files (HTML, CSS, JavaScript, icon, manifest), served from memory, gzipped once.

Only files directly in the static folder are served (never a path outside it or below it). Each is
read when first asked for or after it changed on disk, and gzipped then when it is larger than a
packet, so a phone on a busy table's Wi-Fi gets the page in fewer round trips. An ``ETag`` lets a
phone that has the file already get a 304.

The files are kept readable, with their comments; what goes to a phone is shrunk once when read
(:func:`shrink`): JavaScript and CSS without comments and spaces, HTML without its indentation.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
from aiohttp import web

__all__ = ["PACKET", "Shelf", "shrink", "squeeze", "wants_gzip"]

#: Bodies smaller than this go as they are: one packet either way.
PACKET = 1400
_TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript", ".svg": "image/svg+xml"}


def shrink(name: str, body: bytes) -> bytes:
    """What a phone needs of a file: a script or style sheet without comments and spaces, a page
    without the indentation of its lines (a space between two words stays)."""
    if name.endswith(".js"):
        return rjsmin.jsmin(body.decode("utf-8")).encode("utf-8")
    if name.endswith(".css"):
        return rcssmin.cssmin(body.decode("utf-8")).encode("utf-8")
    if name.endswith(".html"):
        return re.sub(rb"\n[ \t]+", b"\n", body)
    return body


def wants_gzip(request: web.Request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def squeeze(request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
    """A handler's answer larger than a packet goes gzipped to a phone that takes gzip (pages of the
    API, mostly); the guard passes every handler's answer through here."""
    if type(response) is web.Response and "Content-Encoding" not in response.headers:
        body = response.body
        if isinstance(body, (bytes, bytearray)) and len(body) > PACKET and wants_gzip(request):
            response.enable_compression(web.ContentCoding.gzip)
    return response


@dataclass(frozen=True)
class _Item:
    stamp: tuple[int, int]
    body: bytes
    gz: bytes | None
    etag: str
    content_type: str


class Shelf:
    """Files of one folder by name, kept in memory."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._items: dict[str, _Item] = {}

    def item(self, name: str) -> _Item | None:
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        path = self.folder / name
        try:
            st = path.stat()
        except OSError:
            return None
        if not path.is_file() or path.is_symlink():
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        held = self._items.get(name)
        if held is None or held.stamp != stamp:
            body = shrink(name, path.read_bytes())
            gz = gzip.compress(body, 9, mtime=0) if len(body) > PACKET else None
            kind = _TYPES.get(path.suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind.endswith(("json", "javascript")):
                kind += "; charset=utf-8"
            held = self._items[name] = _Item(stamp, body, gz, '"' + hashlib.sha256(body).hexdigest()[:20] + '"', kind)
        return held

    def response(self, request: web.Request, name: str, cache: str = "no-cache") -> web.Response:
        item = self.item(name)
        if item is None:
            raise web.HTTPNotFound()
        headers = {"ETag": item.etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == item.etag:
            return web.Response(status=304, headers=headers)
        if item.gz is not None and wants_gzip(request):
            headers["Content-Encoding"] = "gzip"
            body = item.gz
        else:
            body = item.body
        headers["Content-Type"] = item.content_type
        return web.Response(body=body if request.method != "HEAD" else None, headers=headers)
