// Turn alerts on the table page (docs/web.md, "Turn alerts"): when one of the seats this
// page holds becomes the one to act, the tab's title starts with "▶ " (and loses it when
// the turn passes), an optional short tone made here with the Web Audio API plays (off
// until the player turns it on; the choice is kept in this browser's localStorage), and a
// desktop notification shows if the tab is hidden and the player allowed notifications
// with the page's button (the page never asks on its own). With prefers-reduced-motion
// the banner does not pulse; the title never flashes in any case, it only gains its mark.

import { el } from "/static/common.js";

const MARK = "▶ ";
const SOUND_KEY = "ranchhand.alerts.sound";
const REDUCED = "(prefers-reduced-motion: reduce)";

let yourTurn = false;        // is one of this page's seats to act now?
let audio = null;           // the AudioContext, made on first use
let notice = null;          // the desktop notification on screen, if any
let label = "";             // what the notification names (the game)
let box = null;             // the alerts' controls

/** Is the tone on? Off unless this browser chose it (storage may be refused: off). */
function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

function rememberSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* storage refused (private mode, a policy): the choice lasts as long as the page */
  }
}

/** The title as the page set it, with the mark added or removed as the turn says. */
function markTitle() {
  const title = document.title;
  const bare = title.startsWith(MARK) ? title.slice(MARK.length) : title;
  const wanted = yourTurn ? MARK + bare : bare;
  if (wanted !== title) document.title = wanted;
}

/** Keep the mark when something else rewrites the title (the shell does on each view). */
function watchTitle() {
  let title = document.querySelector("title");
  if (!title) {
    title = document.createElement("title");
    document.head.append(title);
  }
  new MutationObserver(markTitle).observe(title, { childList: true, characterData: true, subtree: true });
}

/** A short two-note tone, made in the page (no audio file); false if it cannot play. */
function tone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(660, start);
    oscillator.frequency.setValueAtTime(880, start + 0.12);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.32);
  } catch (error) {
    console.warn("the turn tone could not play:", error);
    return false;
  }
  if (box) box.dataset.tones = String(Number(box.dataset.tones || 0) + 1);
  return true;
}

function canNotify() {
  return typeof Notification === "function";
}

/** A desktop notification, only while the tab is hidden and only if the player allowed it. */
function notify() {
  if (!canNotify() || Notification.permission !== "granted" || !document.hidden) return;
  try {
    notice = new Notification(`Your turn${label ? ` · ${label}` : ""}`, {
      body: "It is your move at the ranchhand table.",
      tag: `ranchhand-${location.pathname}`,
    });
    notice.onclick = () => {
      window.focus();
      notice.close();
    };
  } catch (error) {
    console.warn("the notification could not show:", error);
  }
}

function closeNotice() {
  if (notice) notice.close();
  notice = null;
}

/** Pulse the "your turn" banner once, unless the player asked for less motion. */
function pulse(on) {
  const banner = document.getElementById("turn");
  if (!banner) return;
  banner.classList.remove("alert-pulse");
  if (!on || window.matchMedia(REDUCED).matches) return;
  void banner.offsetWidth; // restart the animation for this new turn
  banner.classList.add("alert-pulse");
}

/** The controls: the tone's switch and the notifications' button (with their state). */
function drawControls(container) {
  box = container;
  const sound = el("input", { type: "checkbox", id: "alert-sound", "data-alert-sound": "" });
  sound.checked = soundOn();
  sound.addEventListener("change", () => {
    rememberSound(sound.checked);
    if (sound.checked) tone(); // a sample, and the click lets the browser start the audio
  });
  const state = el("span", { class: "alert-state", id: "notify-state" });
  const ask = el("button", { type: "button", class: "small", "data-notify": "" }, "Notify me when it is my turn");
  const showPermission = () => {
    const permission = canNotify() ? Notification.permission : "unsupported";
    box.dataset.notifyPermission = permission;
    ask.hidden = permission !== "default";
    state.textContent = {
      granted: "Desktop notifications: on while this tab is hidden.",
      denied: "Desktop notifications are blocked in this browser's settings.",
      unsupported: "This browser shows no desktop notifications.",
      default: "",
    }[permission] || "";
  };
  ask.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } catch (error) {
      console.warn(error);
    }
    showPermission();
  });
  showPermission();
  container.replaceChildren(
    el("label", { class: "alert-sound", for: "alert-sound" }, sound, " Sound on my turn"),
    ask,
    state,
  );
}

/** Start the alerts: the controls go in ``container`` (may be null: no controls). */
export function startAlerts(container) {
  watchTitle();
  if (container) drawControls(container);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) closeNotice();
  });
}

/**
 * Tell the alerts every view this page holds (one per seat; spectators: one with no seat).
 * It is the viewer's turn when a view of a playing table lists legal actions.
 */
export function updateAlerts(views, game) {
  if (game) label = game;
  const now = views.some((v) => v && v.status === "playing" && v.legal_actions.length > 0);
  const began = now && !yourTurn;
  const ended = !now && yourTurn;
  yourTurn = now;
  document.body.dataset.yourTurn = String(now);
  markTitle();
  if (began) {
    if (soundOn()) tone();
    notify();
    pulse(true);
  } else if (ended) {
    closeNotice();
    pulse(false);
  }
}
