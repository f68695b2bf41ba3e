"""Noise reduction in front of the recogniser: a streaming Wiener filter (numpy, no Kivy, no model).

The café's steady noise (fans, the espresso machine, the room's hum: bench/voice.py's pink noise) is
estimated per frequency from the quietest frames of the last few seconds, whether or not anyone is talking
to the kiosk; each 25 ms frame is then scaled per frequency by a decision-directed Wiener gain (Ephraim &
Malah) that never goes below `floor` (a little noise left in sounds more like the model's training audio
than the "musical" residue of plain spectral subtraction). Frames overlap by half with square-root Hann
windows, so with no noise the output is the input, delayed by one hop (12.5 ms).

    dn = Denoiser()
    out = dn.process(pcm)      # 16 kHz mono s16le in, the same number of samples out (one hop late)
    dn.reset()                 # a new utterance: the filter's memory, not the noise estimate
"""

from __future__ import annotations

import numpy as np

FRAME = 400  # 25 ms at 16 kHz
HOP = FRAME // 2
NFFT = 512
_WINDOW = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FRAME) / FRAME))  # periodic: its square sums to 1


# The kiosk's settings (a `Denoiser()` takes them when built): bench/voice.py --denoise tries others, on the
# tuning part of bench/voice_split.py only.
SETTINGS: dict[str, float] = {"floor": 0.1, "history": 2.0, "quantile": 0.2, "smoothing": 0.98, "over": 1.0,
                             "low_hz": 0.0, "high_hz": 8000.0}  # outside low_hz-high_hz: the floor's gain


class Denoiser:
    def __init__(self, floor: float | None = None, history: float | None = None, quantile: float | None = None,
                 smoothing: float | None = None, over: float | None = None) -> None:
        s = SETTINGS
        self.floor = s["floor"] if floor is None else floor  # the lowest gain (0.1 = -20 dB)
        self.quantile = q = s["quantile"] if quantile is None else quantile
        # decision-directed weight of the previous frame's estimate
        self.smoothing = s["smoothing"] if smoothing is None else smoothing
        # the quantile of a noise-only periodogram (exponential) is -ln(1 - q) of its mean: undo that bias
        self.bias = (s["over"] if over is None else over) / -np.log(1.0 - q)
        history = s["history"] if history is None else history
        hz = np.arange(NFFT // 2 + 1) * 16000 / NFFT
        self._outside = (hz < s["low_hz"]) | (hz > s["high_hz"])
        self._size = max(8, int(history * 16000 / HOP))
        self._powers = np.zeros((self._size, NFFT // 2 + 1))
        self._count = 0
        self._noise: np.ndarray | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the signal (a new utterance starts); the noise estimate stays."""
        self._tail = np.zeros(FRAME - HOP)
        self._ola = np.zeros(FRAME - HOP)
        self._prev: np.ndarray | None = None  # the previous frame's clean power estimate

    @property
    def noise(self) -> np.ndarray | None:
        """Noise power per FFT bin (None until a few frames were heard)."""
        return self._noise

    def learn(self, pcm: bytes) -> None:
        """Noise only (nobody is talking to the kiosk): update the estimate, produce nothing."""
        x = np.frombuffer(pcm, dtype=np.int16, count=len(pcm) // 2).astype(np.float64)
        n = (len(x) - FRAME) // HOP + 1
        if n > 0:
            idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
            spec = np.fft.rfft(x[idx] * _WINDOW, NFFT)
            self._learn(spec.real ** 2 + spec.imag ** 2)

    def process(self, pcm: bytes) -> bytes:
        x = np.frombuffer(pcm, dtype=np.int16, count=len(pcm) // 2).astype(np.float64)
        if not len(x):
            return b""
        buf = np.concatenate([self._tail, x])
        n = (len(buf) - FRAME) // HOP + 1 if len(buf) >= FRAME else 0
        if n <= 0:
            self._tail = buf
            return b""
        idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
        spec = np.fft.rfft(buf[idx] * _WINDOW, NFFT)
        power = spec.real ** 2 + spec.imag ** 2
        self._learn(power)
        gains = self._gains(power)
        frames = np.fft.irfft(spec * gains, NFFT)[:, :FRAME] * _WINDOW
        out = np.zeros(HOP * (n - 1) + FRAME)
        for i in range(n):
            out[i * HOP : i * HOP + FRAME] += frames[i]
        out[: FRAME - HOP] += self._ola
        done = n * HOP
        self._ola = out[done : done + FRAME - HOP].copy()
        self._tail = buf[done:]
        return bytes(np.clip(np.rint(out[:done]), -32768, 32767).astype(np.int16).tobytes())

    def _learn(self, power: np.ndarray) -> None:
        for row in power:  # quiet frames included, digital silence too: speech must never set the noise
            self._powers[self._count % self._size] = row
            self._count += 1
        seen = self._powers[: min(self._count, self._size)]
        if len(seen) >= 4:
            self._noise = np.quantile(seen, self.quantile, axis=0) * self.bias + 1e-3

    def _gains(self, power: np.ndarray) -> np.ndarray:
        noise = self._noise
        if noise is None:
            return np.ones_like(power)
        gains = np.empty_like(power)
        prev = self._prev
        for i, p in enumerate(power):
            post = p / noise  # a posteriori SNR
            ml = np.maximum(post - 1.0, 0.0)
            prior = ml if prev is None else self.smoothing * prev / noise + (1 - self.smoothing) * ml
            g = np.maximum(prior / (1.0 + prior), self.floor)
            g[self._outside] = self.floor
            gains[i] = g
            prev = g * g * p
        self._prev = prev
        return gains
