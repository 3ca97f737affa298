#!/usr/bin/env python3
"""Rebuild the demo catalogue's media from server/seed/demo/catalogue.json.

  covers: scripts/demo-assets/covers/<slug>.svg  -> server/seed/demo/covers/<slug>.jpg
          (rsvg-convert to a 600x900 PNG, then ImageMagick to JPEG quality 80; without ImageMagick,
          ffmpeg at -q:v 4, about the same size). Each cover's level must be its book's `cefr`
          (scripts/demo-assets/covers.spec.ts).
  audio:  every book's sample_text and every phrase -> espeak-ng WAV -> lame MP3
          (mono, 22.05 kHz, CBR, small ID3v2 tag)

Authoring-time tools only (Debian): espeak-ng lame librsvg2-bin imagemagick (or ffmpeg)
fonts-noto-core fonts-dejavu. The app itself never runs any of this.

Usage:  python3 scripts/demo-assets/generate.py [--covers] [--audio] [--only SLUG ...]
        (no --covers/--audio flag = both)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEMO = os.path.join(ROOT, "server", "seed", "demo")
SVG_DIR = os.path.join(HERE, "covers")

# espeak-ng voice per catalogue language ("pt" = European Portuguese).
VOICES = {"fr": "fr", "es": "es", "de": "de", "it": "it", "pt": "pt", "nl": "nl"}
# Words per minute: graded readers are narrated more slowly at lower levels.
RATES = {"Easy": 135, "Medium": 145, "Hard": 155}
BITRATE_KBPS = 24  # MPEG-2 Layer III, 22.05 kHz mono; keeps the whole demo folder ~2 MB

COVER_W, COVER_H, JPEG_QUALITY = 600, 900, 80


def slugify(title):
    s = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def need(tool):
    path = shutil.which(tool)
    if not path:
        sys.exit(f"missing tool: {tool} (apt-get install -y espeak-ng lame librsvg2-bin imagemagick)")
    return path


def speakable(text):
    # Quotation marks are not read aloud anyway; drop them so espeak does not pause oddly.
    text = re.sub(r"[«»„“”\"]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def make_mp3(text, lang, difficulty, dest, tags, tmpdir):
    wav = os.path.join(tmpdir, "speech.wav")
    subprocess.run(
        [need("espeak-ng"), "-v", VOICES[lang], "-s", str(RATES[difficulty]), "-w", wav, speakable(text)],
        check=True)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    subprocess.run(
        [need("lame"), "--quiet", "-m", "m", "--resample", "22.05", "-b", str(BITRATE_KBPS), "--cbr",
         "--id3v2-only", "--id3v2-utf16",
         # No --tc: LAME 3.100 writes a UTF-16 comment (COMM) without its byte order mark, which ffprobe
         # and Readium report as broken.
         "--tt", tags["title"], "--ta", tags["artist"], "--tl", tags["album"],
         wav, dest],
        check=True)


def build_audio(book, tmpdir):
    slug = slugify(book["title"])
    lang, diff = book["language"], book["difficulty"]
    base = {"artist": book["narrated_by"], "album": book["title"]}
    sample_text = " ".join(line.strip() for line in book["sample_text"].split("\n"))
    make_mp3(sample_text, lang, diff, os.path.join(DEMO, book["sample_audio"]),
             dict(base, title=f"{book['title']} (sample)"), tmpdir)
    n = 0
    for ch in book["chapters"]:
        for i, ph in enumerate(ch["phrases"], 1):
            make_mp3(ph["phrase"], lang, diff, os.path.join(DEMO, ph["audio"]),
                     dict(base, title=f"{book['title']} - {ch['chapter_no']}.{i}"), tmpdir)
            n += 1
    print(f"audio  {slug}: sample + {n} phrases")


def imagemagick_convert():
    """ImageMagick's convert on the PATH, or None: a stand-in script (one that says it "Stands in for
    ImageMagick") cannot write these JPEGs."""
    path = shutil.which("convert")
    if not path:
        return None
    with open(path, "rb") as f:
        head = f.read(2048)
    return None if b"Stands in for ImageMagick" in head else path


def build_cover(book, tmpdir):
    slug = slugify(book["title"])
    svg = os.path.join(SVG_DIR, f"{slug}.svg")
    png = os.path.join(tmpdir, f"{slug}.png")
    dest = os.path.join(DEMO, book["cover"])
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    subprocess.run([need("rsvg-convert"), "-w", str(COVER_W), "-h", str(COVER_H), "-b", "white",
                    "-o", png, svg], check=True)
    convert = os.environ.get("CONVERT") or shutil.which("magick") or imagemagick_convert()
    if convert:
        subprocess.run([convert, png, "-strip", "-sampling-factor", "4:2:0", "-interlace", "JPEG",
                        "-quality", str(JPEG_QUALITY), dest], check=True)
    else:
        subprocess.run([need("ffmpeg"), "-y", "-loglevel", "error", "-i", png, "-q:v", "4",
                        "-pix_fmt", "yuvj420p", dest], check=True)
    print(f"cover  {slug}: {os.path.getsize(dest) // 1024} KB")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--covers", action="store_true")
    ap.add_argument("--audio", action="store_true")
    ap.add_argument("--only", nargs="*", help="slugs to rebuild")
    args = ap.parse_args()
    do_covers = args.covers or not args.audio
    do_audio = args.audio or not args.covers

    with open(os.path.join(DEMO, "catalogue.json"), encoding="utf-8") as f:
        books = json.load(f)["books"]
    with tempfile.TemporaryDirectory() as tmp:
        for book in books:
            slug = slugify(book["title"])
            if args.only and slug not in args.only:
                continue
            if do_covers:
                build_cover(book, tmp)
            if do_audio:
                build_audio(book, tmp)


if __name__ == "__main__":
    main()
