"""Writes a tar or zip with Python's own tarfile and zipfile, for the differential suite.

Reads a JSON spec on stdin (see python-archive.ts), writes the archive's bytes to stdout.
Names, contents and link targets come as base64 of raw bytes, so that names which are not
UTF-8 (latin-1 tar names) reach the archive unchanged.
"""
import base64
import gzip
import io
import json
import stat
import struct
import sys
import tarfile
import zipfile
import zlib

TAR_FORMATS = {"gnu": tarfile.GNU_FORMAT, "pax": tarfile.PAX_FORMAT, "ustar": tarfile.USTAR_FORMAT}
TAR_TYPES = {
    "file": tarfile.REGTYPE,
    "dir": tarfile.DIRTYPE,
    "symlink": tarfile.SYMTYPE,
    "hardlink": tarfile.LNKTYPE,
    "fifo": tarfile.FIFOTYPE,
    "chr": tarfile.CHRTYPE,
    "blk": tarfile.BLKTYPE,
}


def raw(value):
    return base64.b64decode(value) if value is not None else b""


def text(value):
    # surrogateescape keeps bytes that are not UTF-8 as they are, both ways.
    return raw(value).decode("utf-8", "surrogateescape")


def write_tar(spec):
    out = io.BytesIO()
    options = {"format": TAR_FORMATS[spec["format"]], "encoding": "utf-8", "errors": "surrogateescape"}
    if spec.get("globalPax"):
        options["pax_headers"] = spec["globalPax"]
    with tarfile.open(fileobj=out, mode="w", **options) as tar:
        for entry in spec["entries"]:
            info = tarfile.TarInfo(text(entry["name"]))
            info.type = TAR_TYPES[entry["type"]]
            info.mode = entry.get("mode", 0o755 if entry["type"] == "dir" else 0o644)
            info.mtime = 1700000000
            if entry["type"] in ("symlink", "hardlink"):
                info.linkname = text(entry["target"])
            if entry.get("pax"):
                info.pax_headers = dict(entry["pax"])
            content = raw(entry.get("content"))
            if entry["type"] == "file":
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
            else:
                # A header-only entry; a size that no data follows when the spec asks for one.
                info.size = entry.get("declaredSize", 0)
                tar.addfile(info)
    data = bytearray(out.getvalue())
    patch_size_fields(data, spec["entries"])
    return bytes(data)


def patch_size_fields(data, entries):
    """Writes the raw 12-byte size field an entry asks for, and the header's checksum again.

    No tool writes such headers (leading NULs, a field the pax `size` overrides), but readers
    meet them; the offsets come from reading the unpatched archive back."""
    wanted = {text(entry["name"]): raw(entry["sizeField"]) for entry in entries if entry.get("sizeField")}
    if not wanted:
        return
    with tarfile.open(fileobj=io.BytesIO(bytes(data)), encoding="utf-8", errors="surrogateescape") as tar:
        headers = [(member.name, member.offset_data - 512) for member in tar.getmembers() if member.name in wanted]
    for name, at in headers:
        field = wanted[name]
        assert len(field) == 12, "a tar size field is 12 bytes"
        data[at + 124 : at + 136] = field
        data[at + 148 : at + 156] = b" " * 8
        data[at + 148 : at + 156] = b"%06o\0 " % sum(data[at : at + 512])


class MacStyleName(zipfile.ZipInfo):
    """A name stored in UTF-8 without the UTF-8 flag, as macOS's Archive Utility and Info-ZIP zip
    under a UTF-8 locale store it (zipfile itself would set the flag)."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits & ~0x800


class Unseekable(io.RawIOBase):
    """An output zipfile cannot seek back in, so that every entry carries a data descriptor."""

    def __init__(self):
        self.buffer = io.BytesIO()

    def writable(self):
        return True

    def write(self, chunk):
        return self.buffer.write(chunk)


def write_zip(spec):
    target = Unseekable() if spec.get("stream") else io.BytesIO()
    kind = zipfile.ZipInfo if spec.get("utf8Flag", True) else MacStyleName
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry in spec["entries"]:
            name = text(entry["name"]) + ("/" if entry["type"] == "dir" else "")
            info = kind(name, date_time=(2024, 1, 2, 3, 4, 6))
            info.create_system = 3  # Unix: unzip reads the mode and the file type from external_attr
            if entry["type"] == "dir":
                info.external_attr = (stat.S_IFDIR | entry.get("mode", 0o755)) << 16 | 0x10
                archive.writestr(info, b"")
            elif entry["type"] == "symlink":
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                archive.writestr(info, raw(entry["target"]))
            else:
                info.external_attr = (stat.S_IFREG | entry.get("mode", 0o644)) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with archive.open(info, "w", force_zip64=spec.get("zip64", False)) as member:
                    member.write(raw(entry.get("content")))
    return target.buffer.getvalue() if spec.get("stream") else target.getvalue()


def write_zip64_size_first(spec):
    """A zip whose local headers carry, as libarchive's zip64b.zip does, only the uncompressed size
    in their zip64 field (the size field says 0xFFFFFFFF, the compressed one 0), and the CRC and both
    sizes in a zip64 data descriptor after the data. Valid (APPNOTE 4.5.3: a zip64 field holds only
    the sizes whose 32-bit field is 0xFFFFFFFF), and zipfile never writes it: built with struct."""
    out = io.BytesIO()
    central = []
    for entry in spec["entries"]:
        name = raw(entry["name"])
        content = raw(entry.get("content"))
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        data = packer.compress(content) + packer.flush()
        crc = zlib.crc32(content)
        offset = out.tell()
        zip64 = struct.pack("<HHQ", 1, 8, len(content))
        local = (0x04034B50, 45, 0x8, 8, 0, 0x5821, 0, 0, 0xFFFFFFFF, len(name), len(zip64))
        out.write(struct.pack("<IHHHHHIIIHH", *local))
        out.write(name + zip64 + data)
        out.write(struct.pack("<IIQQ", 0x08074B50, crc, len(data), len(content)))
        mode = (stat.S_IFREG | entry.get("mode", 0o644)) << 16
        central.append(
            struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0300 | 45, 45, 0x8, 8, 0, 0x5821, crc, len(data),
                        len(content), len(name), 0, 0, 0, 0, mode, offset) + name
        )
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(directory), start, 0))
    return out.getvalue()


def main():
    spec = json.load(sys.stdin)
    if spec["kind"] == "tar":
        data = write_tar(spec)
    elif spec.get("zip64SizeFirst"):
        data = write_zip64_size_first(spec)
    else:
        data = write_zip(spec)
    if spec.get("gzip"):
        data = gzip.compress(data, mtime=0)
    sys.stdout.buffer.write(data)


main()
