'use strict';
// Runs count jobs, at most `concurrency` at a time, and stops starting new ones once
// shouldStop() says so (the origin died, the batch's time is up): a fuzz batch is bounded in
// count and in time.

/**
 * @param {number} count
 * @param {number} concurrency
 * @param {(i: number, worker: number) => Promise<void>} job  worker: 0..concurrency-1, which
 *   of the parallel lanes runs it (for per-lane resources such as a client address)
 * @param {() => boolean} [shouldStop]
 * @returns {Promise<number>} how many jobs were started
 */
async function runPool(count, concurrency, job, shouldStop = () => false) {
  let next = 0;
  const lane = async (worker) => {
    while (next < count && !shouldStop()) {
      const i = next;
      next += 1;
      await job(i, worker);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, (_, worker) => lane(worker)));
  return next;
}

module.exports = { runPool };
