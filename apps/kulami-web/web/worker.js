// The engine's web worker: loads the game's program and answers each piece of work posted to it
// (JSON in, JSON out), so that the page's own thread only draws. A failure is posted back as
// `{error}`, so that the page gives up on the work instead of waiting for it.
import init, { answer } from "./kulami_web.js";

const ready = init();
self.onmessage = async (event) => {
  try {
    await ready;
    self.postMessage(answer(event.data));
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
