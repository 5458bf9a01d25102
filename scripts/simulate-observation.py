#!/usr/bin/env python3
"""Simulates a small multi-channel radio observation and images it with WSClean.

Writes a measurement set of a VLA-like Y array (27 antennas, an 8 h track at declination +45,
four channels from 1.2 to 1.5 GHz, natural weights) observing point and elliptical Gaussian sources
with spectral indices, plus Gaussian noise; then runs WSClean for the per-channel dirty images and
PSFs (the inputs of bkt-clean --join-channels) and for its own multiscale, joined-channel
deconvolution with auto-threshold and auto-mask (the reference bkt-clean is compared with). The
exact WSClean commands are written beside the outputs, in COMMANDS.txt, with the sky in SKY.txt.

Needs Debian's python3-casacore and wsclean (apt-get install python3-casacore wsclean); run it
with the system Python, which has casacore:  /usr/bin/python3 scripts/simulate-observation.py OUT
"""
import argparse
import math
import os
import shutil
import subprocess
import sys

import numpy as np
from casacore import tables

C = 299792458.0
LATITUDE = math.radians(34.0784)   # the VLA's site
LONGITUDE = math.radians(-107.6184)
RA0 = math.radians(204.2538)       # phase centre
DEC0 = math.radians(45.0)
FREQUENCIES = np.array([1.2e9, 1.3e9, 1.4e9, 1.5e9])
REFERENCE_FREQUENCY = 1.35e9
CHANNEL_WIDTH = 100e6
PIXEL_ARCSEC = 6.0
SIZE = 256

# The sky: (offset east arcsec, offset north arcsec, flux at REFERENCE_FREQUENCY Jy, spectral
# index, major FWHM arcsec, minor FWHM arcsec, position angle deg east of north). FWHM 0: a point.
SKY = [
    (-180.0, 120.0, 0.50, -0.7, 0, 0, 0),
    (210.0, -90.0, 0.30, -0.8, 0, 0, 0),
    (60.0, 300.0, 0.12, -0.5, 0, 0, 0),
    (-320.0, -260.0, 0.08, 0.2, 0, 0, 0),
    (0.0, 0.0, 0.40, -0.7, 90.0, 45.0, 30.0),
    (-120.0, -180.0, 0.25, -1.0, 150.0, 100.0, -20.0),
    (250.0, 200.0, 0.15, -0.6, 60.0, 60.0, 0.0),
]
NOISE_JY = 0.5  # per visibility and correlation: about 1 mJy in the MFS image, 2 mJy a channel


def antenna_layout():
    """East, north, up (m) of a Y array: three arms of nine antennas, power-law spacing."""
    positions = []
    for arm_angle in (5.0, 125.0, 245.0):
        a = math.radians(arm_angle)
        for i in range(1, 10):
            r = 40.0 * i ** 1.716  # the VLA's spacing law, C-configuration scale (about 1.7 km arms)
            positions.append((r * math.sin(a), r * math.cos(a), 0.0))
    return np.array(positions)


def equatorial(enu):
    """Local east/north/up to the equatorial frame (X towards hour angle 0, Z to the pole)."""
    east, north, up = enu[:, 0], enu[:, 1], enu[:, 2]
    x = -math.sin(LATITUDE) * north + math.cos(LATITUDE) * up
    y = east
    z = math.cos(LATITUDE) * north + math.sin(LATITUDE) * up
    return np.stack([x, y, z], axis=1)


def itrf(enu):
    """Geocentric positions (m) for the ANTENNA table: the site on a sphere, plus the layout."""
    radius = 6378137.0
    centre = radius * np.array([math.cos(LATITUDE) * math.cos(LONGITUDE), math.cos(LATITUDE) * math.sin(LONGITUDE),
                                math.sin(LATITUDE)])
    east = np.array([-math.sin(LONGITUDE), math.cos(LONGITUDE), 0.0])
    north = np.array([-math.sin(LATITUDE) * math.cos(LONGITUDE), -math.sin(LATITUDE) * math.sin(LONGITUDE),
                      math.cos(LATITUDE)])
    up = centre / radius
    return centre + enu[:, :1] * east + enu[:, 1:2] * north + enu[:, 2:3] * up


def uvw_of(baselines, hour_angle):
    """uvw (m) of equatorial baselines at one hour angle, towards DEC0."""
    bx, by, bz = baselines[:, 0], baselines[:, 1], baselines[:, 2]
    sh, ch, sd, cd = math.sin(hour_angle), math.cos(hour_angle), math.sin(DEC0), math.cos(DEC0)
    u = sh * bx + ch * by
    v = -sd * ch * bx + sd * sh * by + cd * bz
    w = cd * ch * bx - cd * sh * by + sd * bz
    return np.stack([u, v, w], axis=1)


def direction_cosines(east_arcsec, north_arcsec):
    """l, m of a source at a small angular offset east and north of the phase centre (SIN)."""
    ra = RA0 + math.radians(east_arcsec / 3600.0) / math.cos(DEC0)
    dec = DEC0 + math.radians(north_arcsec / 3600.0)
    l = math.cos(dec) * math.sin(ra - RA0)
    m = math.sin(dec) * math.cos(DEC0) - math.cos(dec) * math.sin(DEC0) * math.cos(ra - RA0)
    return l, m


def visibilities(uvw_m, rng):
    """Model visibilities (rows, channels), Stokes I, plus noise: V = sum S exp(2 pi i (u l + v m +
    w (n - 1))) with each Gaussian's taper. The sign is the one that puts WSClean's image of these
    UVW (antenna 2 minus antenna 1) where SKY says: checked on the dirty image's peaks."""
    rows = uvw_m.shape[0]
    data = np.zeros((rows, len(FREQUENCIES)), dtype=np.complex128)
    for channel, frequency in enumerate(FREQUENCIES):
        u, v, w = (uvw_m * frequency / C).T
        for east, north, flux, alpha, major, minor, angle in SKY:
            l, m = direction_cosines(east, north)
            n = math.sqrt(1.0 - l * l - m * m)
            s = flux * (frequency / REFERENCE_FREQUENCY) ** alpha
            phase = np.exp(2j * math.pi * (u * l + v * m + w * (n - 1.0)))
            if major > 0:
                # A Gaussian of FWHM a along its major axis (position angle from north through east)
                # tapers the visibility by exp(-pi^2 (a^2 u'^2 + b^2 v'^2) / (4 ln 2)).
                pa = math.radians(angle)
                u_major = u * math.sin(pa) + v * math.cos(pa)
                v_minor = u * math.cos(pa) - v * math.sin(pa)
                a, b = math.radians(major / 3600.0), math.radians(minor / 3600.0)
                s = s * np.exp(-(math.pi ** 2) * (a * a * u_major ** 2 + b * b * v_minor ** 2) / (4.0 * math.log(2.0)))
            data[:, channel] += s * phase
    noise = rng.normal(0.0, NOISE_JY, data.shape) + 1j * rng.normal(0.0, NOISE_JY, data.shape)
    return data + noise


def write_ms(path, rng):
    enu = antenna_layout()
    antennas = len(enu)
    pairs = [(a, b) for a in range(antennas) for b in range(a + 1, antennas)]
    baselines = equatorial(enu)
    baseline_vectors = np.array([baselines[b] - baselines[a] for a, b in pairs])
    steps = 96  # 5-minute integrations over 8 h
    interval = 300.0
    start = 4.9e9  # MJD seconds (2014)
    hour_angles = np.radians(np.linspace(-60.0, 60.0, steps))  # -4 h to +4 h

    uvw = np.concatenate([uvw_of(baseline_vectors, h) for h in hour_angles])
    stokes_i = visibilities(uvw, rng)
    rows = uvw.shape[0]
    # Two parallel-hand correlations (RR, LL), each equal to I, as a circular-feed array records.
    data = np.repeat(stokes_i[:, :, None], 2, axis=2).astype(np.complex64)

    desc = tables.maketabdesc([tables.makearrcoldesc("DATA", 0j, ndim=2, valuetype="complex")])
    ms = tables.default_ms(path, desc)
    ms.addrows(rows)
    ms.putcol("UVW", uvw)
    ms.putcol("ANTENNA1", np.tile([a for a, _ in pairs], steps).astype(np.int32))
    ms.putcol("ANTENNA2", np.tile([b for _, b in pairs], steps).astype(np.int32))
    times = np.repeat(start + interval * np.arange(steps), len(pairs))
    for column in ("TIME", "TIME_CENTROID"):
        ms.putcol(column, times)
    for column in ("INTERVAL", "EXPOSURE"):
        ms.putcol(column, np.full(rows, interval))
    ms.putcol("DATA", data)
    ms.putcol("FLAG", np.zeros(data.shape, dtype=bool))
    ms.putcol("WEIGHT", np.ones((rows, 2), dtype=np.float32))
    ms.putcol("SIGMA", np.ones((rows, 2), dtype=np.float32))
    ms.close()

    antenna = tables.table(path + "/ANTENNA", readonly=False, ack=False)
    antenna.addrows(antennas)
    antenna.putcol("POSITION", itrf(enu))
    antenna.putcol("DISH_DIAMETER", np.full(antennas, 25.0))
    antenna.putcol("NAME", [f"Y{i:02d}" for i in range(antennas)])
    antenna.putcol("STATION", [f"W{i:02d}" for i in range(antennas)])
    antenna.putcol("TYPE", ["GROUND-BASED"] * antennas)
    antenna.putcol("MOUNT", ["ALT-AZ"] * antennas)
    antenna.close()

    window = tables.table(path + "/SPECTRAL_WINDOW", readonly=False, ack=False)
    window.addrows(1)
    channels = len(FREQUENCIES)
    window.putcell("NUM_CHAN", 0, channels)
    window.putcell("CHAN_FREQ", 0, FREQUENCIES)
    for column in ("CHAN_WIDTH", "EFFECTIVE_BW", "RESOLUTION"):
        window.putcell(column, 0, np.full(channels, CHANNEL_WIDTH))
    window.putcell("REF_FREQUENCY", 0, REFERENCE_FREQUENCY)
    window.putcell("TOTAL_BANDWIDTH", 0, CHANNEL_WIDTH * channels)
    window.putcell("NAME", 0, "L-band")
    window.close()

    polarization = tables.table(path + "/POLARIZATION", readonly=False, ack=False)
    polarization.addrows(1)
    polarization.putcell("NUM_CORR", 0, 2)
    polarization.putcell("CORR_TYPE", 0, np.array([5, 8], dtype=np.int32))  # RR, LL
    polarization.putcell("CORR_PRODUCT", 0, np.array([[0, 1], [0, 1]], dtype=np.int32))
    polarization.close()

    description = tables.table(path + "/DATA_DESCRIPTION", readonly=False, ack=False)
    description.addrows(1)
    description.putcell("SPECTRAL_WINDOW_ID", 0, 0)
    description.putcell("POLARIZATION_ID", 0, 0)
    description.close()

    field = tables.table(path + "/FIELD", readonly=False, ack=False)
    field.addrows(1)
    for column in ("PHASE_DIR", "DELAY_DIR", "REFERENCE_DIR"):
        field.putcell(column, 0, np.array([[RA0, DEC0]]))
    field.putcell("NAME", 0, "SIM")
    field.close()

    observation = tables.table(path + "/OBSERVATION", readonly=False, ack=False)
    observation.addrows(1)
    observation.putcell("TELESCOPE_NAME", 0, "SIMULATED")
    observation.putcell("TIME_RANGE", 0, np.array([start, start + interval * steps]))
    observation.close()
    return rows


def run(command, log, output):
    """Runs one WSClean command, noting it in COMMANDS.txt and keeping what it prints in `output`."""
    log.write(" ".join(command) + "\n")
    log.flush()
    with open(output, "w") as printed:
        subprocess.run(command, check=True, stdout=printed, stderr=subprocess.STDOUT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="folder for the measurement set, the WSClean images and COMMANDS.txt")
    parser.add_argument("--seed", type=int, default=38, help="noise seed (default 38)")
    parser.add_argument("--keep-ms", action="store_true", help="keep the measurement set")
    parser.add_argument("--size", type=int, default=SIZE, help=f"image side in pixels (default {SIZE})")
    args = parser.parse_args()
    if shutil.which("wsclean") is None:
        sys.exit("simulate-observation: wsclean not found (apt-get install wsclean)")
    os.makedirs(args.out, exist_ok=True)
    ms = os.path.join(args.out, "sim.ms")
    shutil.rmtree(ms, ignore_errors=True)
    rows = write_ms(ms, np.random.default_rng(args.seed))
    common = ["-size", str(args.size), str(args.size), "-scale", f"{PIXEL_ARCSEC}asec", "-weight", "natural",
              "-channels-out", str(len(FREQUENCIES)), "-no-update-model-required"]
    with open(os.path.join(args.out, "COMMANDS.txt"), "w") as log:
        log.write(f"# {rows} rows, {len(FREQUENCIES)} channels; {sys.argv[0]} --seed {args.seed}\n")
        # The inputs: per-channel dirty images (NAME-000N-dirty.fits, NAME-MFS-dirty.fits) and PSFs
        # twice their size (NAME-000N-psf.fits, NAME-MFS-psf.fits), so that the image-domain major
        # cycle, model (*) PSF, reaches every pixel from every component: with PSFs of the image's
        # size, the far sidelobes of the bright sources stay in the residual.
        psf_common = [str(2 * args.size) if value == str(args.size) else value for value in common]
        run(["wsclean", "-name", os.path.join(args.out, "sim"), *psf_common, "-make-psf-only", ms], log,
            os.path.join(args.out, "sim-psf.log"))
        run(["wsclean", "-name", os.path.join(args.out, "sim"), *common, "-niter", "0", ms], log,
            os.path.join(args.out, "sim.log"))
        # The reference: WSClean's multiscale joined-channel deconvolution as radio astronomers run it.
        run(["wsclean", "-name", os.path.join(args.out, "wsclean"), *common, "-join-channels", "-multiscale",
             "-auto-threshold", "1", "-auto-mask", "3", "-mgain", "0.8", "-niter", "100000",
             "-fit-spectral-pol", "2", "-save-source-list", ms], log, os.path.join(args.out, "wsclean.log"))
    with open(os.path.join(args.out, "SKY.txt"), "w") as sky:
        sky.write(f"# reference frequency {REFERENCE_FREQUENCY:.6g} Hz; phase centre RA {math.degrees(RA0):.4f} deg, "
                  f"Dec {math.degrees(DEC0):.4f} deg; noise {NOISE_JY} Jy per visibility and correlation\n")
        sky.write("# east_arcsec north_arcsec flux_Jy spectral_index major_fwhm_arcsec minor_fwhm_arcsec pa_deg\n")
        for source in SKY:
            sky.write(" ".join(f"{value:g}" for value in source) + "\n")
    if not args.keep_ms:
        shutil.rmtree(ms)


if __name__ == "__main__":
    main()
