#!/usr/bin/env node
// A gostop bot program in JavaScript (docs/protocol.md): it plays the last legal move.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "request") {
    process.stdout.write(JSON.stringify({ move: message.legal[message.legal.length - 1] }) + "\n");
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
