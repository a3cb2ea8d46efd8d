// The `worker` strategy: the whole job on a Web Worker's thread; the page's main thread only
// waits for the answer. A parse gets the payload's bytes transferred (no copy). With the answer go
// the Unix times (this worker's timeOrigin + now()) its onmessage began and it posted the answer,
// which the page puts on its own clock to time the job's phases.
import { makeJob } from "./work.js";

const unixNow = () => performance.timeOrigin + performance.now();

self.onmessage = ({ data: { work, input } }) => {
  const received = unixNow();
  const job = makeJob(work, input, 0);
  job.step();
  const answer = job.answer();
  self.postMessage({ answer, received, replied: unixNow() });
};
