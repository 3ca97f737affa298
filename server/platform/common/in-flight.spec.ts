import { InFlight } from './in-flight';

/** Work that the test settles by hand, counting how often it was started. */
function manualWork<T>() {
  const runs: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const work = jest.fn(() => new Promise<T>((resolve, reject) => runs.push({ resolve, reject })));
  return { work, runs };
}

describe(InFlight.name, () => {
  it('gives callers of the same key one run of the work, and its result', async () => {
    const inFlight = new InFlight<number>();
    const { work, runs } = manualWork<number>();
    const first = inFlight.run('a', work);
    const second = inFlight.run('a', work);
    expect(work).toHaveBeenCalledTimes(1);
    runs[0].resolve(42);
    await expect(Promise.all([first, second])).resolves.toEqual([42, 42]);
  });

  it('runs the work of different keys apart', async () => {
    const inFlight = new InFlight<string>();
    const { work, runs } = manualWork<string>();
    const a = inFlight.run('a', work);
    const b = inFlight.run('b', work);
    expect(work).toHaveBeenCalledTimes(2);
    runs[1].resolve('b');
    runs[0].resolve('a');
    await expect(Promise.all([a, b])).resolves.toEqual(['a', 'b']);
  });

  it('forgets a key once its work has worked: the next caller starts it again', async () => {
    const inFlight = new InFlight<number>();
    const { work, runs } = manualWork<number>();
    const first = inFlight.run('a', work);
    runs[0].resolve(1);
    await first;
    const again = inFlight.run('a', work);
    expect(work).toHaveBeenCalledTimes(2);
    runs[1].resolve(2);
    await expect(again).resolves.toBe(2);
  });

  it('rejects every waiting caller when the work fails, and keeps no failure', async () => {
    const inFlight = new InFlight<number>();
    const { work, runs } = manualWork<number>();
    const first = inFlight.run('a', work);
    const second = inFlight.run('a', work);
    runs[0].reject(new Error('ffmpeg failed'));
    await expect(first).rejects.toThrow('ffmpeg failed');
    await expect(second).rejects.toThrow('ffmpeg failed');
    const retry = inFlight.run('a', work);
    expect(work).toHaveBeenCalledTimes(2);
    runs[1].resolve(3);
    await expect(retry).resolves.toBe(3);
  });
});
