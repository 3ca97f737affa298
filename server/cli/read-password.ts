import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * A password for a command-line tool without putting it on the command line, where shell history and
 * `ps` keep it: asked at a prompt that does not echo (twice, to catch a typo) on a terminal, else read as
 * the first line of standard input (`printf '%s\n' "$PASSWORD" | npm run create-admin -- …`).
 */
export async function readPassword(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  if (!input.isTTY) return firstLine(input);
  const first = await ask('Password: ', input, output);
  const again = await ask('Repeat the password: ', input, output);
  if (first !== again) throw new Error('The two passwords differ.');
  return first;
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}

/** One line typed at the terminal, the prompt shown and the typing not. */
function ask(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  output.write(prompt);
  let muted = true;
  const silent = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input, output: silent, terminal: true });
  return new Promise((resolve) => {
    lines.question('', (answer) => {
      muted = false;
      output.write('\n');
      lines.close();
      resolve(answer);
    });
  });
}
