"""The plain page a seat's or spectator's link opens: a live table, drawn as text.

It connects to ``/ws/tables/{id}`` with the token from the link's ``#token=``
fragment (a fragment never reaches the server's or a proxy's logs), shows the
status, the log, the observation as JSON and the legal actions as buttons, and
sends what is clicked or typed. Drawing the games properly is the browser front
end's work; this page is enough to play with friends today.
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ranchhand table</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:1em auto;max-width:60em;padding:0 1em}
pre{background:#f4f4f4;padding:.6em;overflow:auto;max-height:24em}
button{margin:.15em;font:inherit}#error{color:#b00}#log{max-height:14em}
</style></head><body>
<h1 id="title">ranchhand</h1>
<p id="status">connecting...</p><p id="error"></p>
<div id="actions"></div>
<form id="typed"><input id="text" size="40" placeholder="type an action">
<button>play</button></form>
<h2>What happened</h2><pre id="log"></pre>
<h2>What you see</h2><pre id="observation"></pre>
<script>
"use strict";
const id = location.pathname.split("/").filter(Boolean).pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const scheme = location.protocol === "https:" ? "wss:" : "ws:";
let url = scheme + "//" + location.host + "/ws/tables/" + encodeURIComponent(id);
if (token) url += "?token=" + encodeURIComponent(token);
let view = null;
const $ = (name) => document.getElementById(name);
function send(action) {
  $("error").textContent = "";
  socket.send(JSON.stringify({action: action, step: view ? view.step : null}));
}
function draw(v) {
  view = v;
  const seat = v.you === null ? "spectator" : "seat " + v.you;
  $("title").textContent = v.game + " \\u00b7 table " + v.id + " \\u00b7 " + seat;
  const who = v.to_act.map((p) => "P" + p + " " + v.seats[p].name).join(", ");
  $("status").textContent = v.status === "finished"
    ? "Game over: " + JSON.stringify(v.outcome)
    : "Step " + v.step + ", turn " + v.turn + "; to act: " + (who || "the server");
  $("log").textContent = v.log.join("\\n");
  $("log").scrollTop = 1e9;
  $("observation").textContent = JSON.stringify(v.observation, null, 1);
  const box = $("actions");
  box.replaceChildren();
  for (const text of v.legal_actions) {
    const b = document.createElement("button");
    b.textContent = text;
    b.onclick = () => send(text);
    box.append(b);
  }
  $("typed").hidden = v.legal_actions.length === 0;
}
const socket = new WebSocket(url);
socket.onmessage = (event) => {
  const data = JSON.parse(event.data);
  if (data.error) $("error").textContent = data.error; else draw(data);
};
socket.onclose = () => { $("status").textContent += " (disconnected: reload the page)"; };
$("typed").onsubmit = (event) => {
  event.preventDefault();
  const text = $("text").value.trim();
  if (text) { send(text); $("text").value = ""; }
};
</script></body></html>
"""
