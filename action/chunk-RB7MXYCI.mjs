import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/questions/channel.ts
var systemWaitClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  })
};

export {
  systemWaitClock
};
