#!/usr/bin/env bash
# Regenerates test/fixtures/preflight/ with ffmpeg (tests and CI only read the committed files).
# Every file is synthetic: ffmpeg's test sources (testsrc2, sine), no third-party media.
set -euo pipefail
out="$(dirname "$0")/../test/fixtures/preflight"
mkdir -p "$out"
cd "$out"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# images: one 64x48 frame in each format; a GIF (not accepted) and an HTML page named .png
ff -f lavfi -i testsrc2=s=64x48 -frames:v 1 image.png
ff -f lavfi -i testsrc2=s=64x48 -frames:v 1 image.jpg
ff -f lavfi -i testsrc2=s=64x48 -frames:v 1 -c:v libwebp image.webp
ff -f lavfi -i testsrc2=s=64x48 -frames:v 1 image.gif
printf '<!doctype html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n' > page-named.png

# videos: 4 s at 24 fps, faststart (moov first), ~1.4 MB (high bitrate so the size is real)
ff -f lavfi -i testsrc2=s=320x240:r=24 -t 4 -c:v libx264 -preset ultrafast -b:v 2800k -minrate 2800k -maxrate 2800k \
  -bufsize 1400k -x264-params nal-hrd=cbr -pix_fmt yuv420p -movflags +faststart video-24fps.mp4
# 4 s at 12 fps (under the spec's 16 fps)
ff -f lavfi -i testsrc2=s=160x120:r=12 -t 4 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -movflags +faststart video-12fps.mp4
# 6 s at 24 fps with the moov box at the end (no faststart), ~300 KB
ff -f lavfi -i testsrc2=s=320x240:r=24 -t 6 -c:v libx264 -preset ultrafast -b:v 400k -minrate 400k -maxrate 400k \
  -bufsize 200k -x264-params nal-hrd=cbr -pix_fmt yuv420p video-moov-at-end.mp4
# WebM (VP8) 5 s at 25 fps, and 3 s at 12 fps; MOV 5 s at 30 fps
ff -f lavfi -i testsrc2=s=160x120:r=25 -t 5 -c:v libvpx -b:v 200k video.webm
ff -f lavfi -i testsrc2=s=96x72:r=12 -t 3 -c:v libvpx -b:v 100k video-12fps.webm
ff -f lavfi -i testsrc2=s=160x120:r=30 -t 5 -c:v libx264 -preset ultrafast -pix_fmt yuv420p video.mov

# audios: 6 s each (MP3, WAV, M4A); three of them add up to 18 s, over the 15 s total
ff -f lavfi -i sine=frequency=440:duration=6 -c:a libmp3lame -b:a 64k audio.mp3
ff -f lavfi -i sine=frequency=440:duration=6 -ac 1 -ar 8000 audio.wav
ff -f lavfi -i sine=frequency=440:duration=6 -c:a aac -b:a 64k audio.m4a

ls -l
