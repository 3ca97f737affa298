import { batchedOutput } from './log-output';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function recorder() {
  const writes: string[] = [];
  return { writes, output: batchedOutput({ write: (text: string) => void writes.push(text) }) };
}

describe(batchedOutput.name, () => {
  it("writes a turn's lines together, in order, once the turn is over", async () => {
    const { writes, output } = recorder();
    output.write('one\n');
    output.write('two\n');
    expect(writes).toEqual([]);
    await nextTurn();
    output.write('three\n');
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('writes at once past 64 KB, so a burst cannot hold more', () => {
    const { writes, output } = recorder();
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) output.write(line);
    expect(writes).toEqual([line.repeat(64)]);
  });

  it('writes what it holds when asked, and nothing when it holds nothing', async () => {
    const { writes, output } = recorder();
    output.flush();
    output.write('held\n');
    output.flush();
    await nextTurn();
    expect(writes).toEqual(['held\n']);
  });
});
