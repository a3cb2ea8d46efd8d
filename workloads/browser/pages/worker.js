// The `worker` strategy: the whole job on a Web Worker's thread; the page's main thread only
// waits for the answer. A parse gets the payload's bytes transferred (no copy).
import { makeJob } from "./work.js";

self.onmessage = ({ data: { work, input } }) => {
  const job = makeJob(work, input, 0);
  job.step();
  self.postMessage(job.answer());
};
