// @ts-check
// Cues that it is the player's turn: the tab's title says so, a notification comes when the
// tab is in the background (only if the player turned them on and the browser allows them),
// and a short tone sounds unless the sound is off (the top bar's switch; off by default).
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";

let mine = false;
/** @type {AudioContext | null} */
let audio = null;

/** Say whose turn it is: called on each drawing of the table. @param {boolean} now it is this player's turn */
export function turnCue(now) {
  document.title = now ? t("cue.title") : t("app.title");
  if (now && !mine) {
    notify();
    tone();
  }
  mine = now;
}

/** The table is gone: the plain title again. */
export function clearCue() {
  mine = false;
  document.title = t("app.title");
}

function notify() {
  if (!prefs().notify || !document.hidden || !("Notification" in window)) return;
  if (Notification.permission !== "granted") return;
  try {
    new Notification(t("app.title"), { body: t("table.yourTurn"), tag: "bigtwo-turn" });
  } catch {
    // Some browsers allow notifications only from a service worker: the title still says it.
  }
}

function tone() {
  if (!prefs().sound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.06, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // No sound on this device: the other cues remain.
  }
}

/**
 * Ask the browser to allow notifications (on the player's own click, as browsers require).
 * @returns {Promise<boolean>} whether they are allowed
 */
export async function allowNotifications() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}
