#!/usr/bin/env node
// A gostop bot program in JavaScript speaking protocol version 2 (docs/protocol.md):
// it plays the last legal move, answers isready, and refuses what it cannot do.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
rl.on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return; // not a message: ignore it
  }
  if (message === null || typeof message !== "object") return;
  const { type, id } = message;
  if (type === "hello") {
    send({ type: "ready", name: "last-move", protocol: "gostop-bot/2", options: [] });
  } else if (type === "isready") {
    send({ type: "readyok", id });
  } else if (type === "request") {
    send({ type: "move", id, move: message.legal[message.legal.length - 1] });
  } else if (type === "quit") {
    process.exit(0);
  } else if (id !== undefined && !["newhand", "end", "stop"].includes(type)) {
    send({ type: "error", id, message: `last-move cannot do ${type}` });
  }
});
