// A sound on the opponent's move: a short wooden knock made with the Web Audio API (no
// audio file). Off by default; the choice is remembered in localStorage.

const KEY = 'agon-sound';

/** @type {AudioContext | null} */
let ctx = null;

/** Whether the sound is on. */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns the sound on or off (from a click: the browser lets audio start then). */
export function setSound(/** @type {boolean} */ on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // no storage: the choice lasts until the page is left
  }
  if (on) {
    unlock();
    knock(0.6);
  }
}

/** Makes (or wakes) the audio context; browsers allow it only after a gesture. */
function unlock() {
  const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctor) return;
  if (!ctx) {
    try {
      ctx = new Ctor();
    } catch {
      ctx = null;
      return;
    }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
}

/** Wakes the audio on the first gesture of a page whose sound was left on. */
export function initSound() {
  const wake = () => {
    if (soundOn()) unlock();
  };
  window.addEventListener('pointerdown', wake, { passive: true });
  window.addEventListener('keydown', wake);
}

/** The knock: a short pitched click over a burst of filtered noise. */
function knock(/** @type {number} */ volume) {
  if (!ctx || ctx.state !== 'running') return;
  const now = ctx.currentTime;
  const out = ctx.createGain();
  out.gain.value = volume;
  out.connect(ctx.destination);

  const osc = ctx.createOscillator();
  osc.type = 'triangle';
  osc.frequency.setValueAtTime(520, now);
  osc.frequency.exponentialRampToValueAtTime(180, now + 0.09);
  const tone = ctx.createGain();
  tone.gain.setValueAtTime(0.0001, now);
  tone.gain.exponentialRampToValueAtTime(0.5, now + 0.004);
  tone.gain.exponentialRampToValueAtTime(0.0001, now + 0.12);
  osc.connect(tone).connect(out);
  osc.start(now);
  osc.stop(now + 0.13);

  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = 1800;
  band.Q.value = 1.2;
  const hiss = ctx.createGain();
  hiss.gain.value = 0.35;
  noise.connect(band).connect(hiss).connect(out);
  noise.start(now);
}

/** Plays the move sound, if it is on. */
export function moveSound() {
  if (!soundOn()) return;
  unlock();
  knock(0.5);
}
