import { cuesOf, lrcTime, toLrc, toVtt, vttTime } from './subtitles';

describe('subtitles', () => {
  describe(cuesOf.name, () => {
    it('puts each phrase where the previous clip ended, in exact microseconds', () => {
      expect(cuesOf(['a', 'b', 'c'], [1_000_001, 2_500_000, 333_333])).toEqual([
        { startUs: 0, endUs: 1_000_001, text: 'a' },
        { startUs: 1_000_001, endUs: 3_500_001, text: 'b' },
        { startUs: 3_500_001, endUs: 3_833_334, text: 'c' },
      ]);
    });

    it('refuses texts and lengths that do not pair up', () => {
      expect(() => cuesOf(['a', 'b'], [1])).toThrow('2 phrases but 1 clip lengths');
    });
  });

  describe(toVtt.name, () => {
    it('writes a WEBVTT header and numbered cues with HH:MM:SS.mmm times', () => {
      const vtt = toVtt(cuesOf(['Guten Morgen.', 'Wie geht es dir?'], [1_234_567, 2_000_400]));
      expect(vtt).toBe(
        'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.235\nGuten Morgen.\n\n' +
          '2\n00:00:01.235 --> 00:00:03.235\nWie geht es dir?\n',
      );
    });

    it('escapes markup, never lets --> into a cue, and drops blank lines inside a phrase', () => {
      const vtt = toVtt([{ startUs: 0, endUs: 1_000_000, text: 'A <b>&</b> -->\n\n  \r\nB > C\r\n' }]);
      expect(vtt).toBe(
        'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\nA &lt;b&gt;&amp;&lt;/b&gt; --&gt;\nB &gt; C\n',
      );
      const payload = vtt.split('\n').slice(4);
      expect(payload.join('\n')).not.toContain('-->');
      expect(payload.slice(0, -1)).not.toContain('');
    });

    it('never writes a cue that ends where it starts once rounded to the millisecond', () => {
      const vtt = toVtt([{ startUs: 1_000_400, endUs: 1_000_499, text: 'kurz' }]);
      expect(vtt).toContain('00:00:01.000 --> 00:00:01.001\n');
    });

    it('counts hours past 99 on a very long chapter', () => {
      expect(vttTime(3_600_000_000 * 123 + 61_001_499)).toBe('123:01:01.001');
      expect(vttTime(59_999_500)).toBe('00:01:00.000');
    });

    it('writes 6,000 cues in well under a second', () => {
      const texts = Array.from({ length: 6000 }, (_, i) => `Satz Nummer ${i} <mit> & Zeichen`);
      const lengths = texts.map((_, i) => 1_500_000 + i);
      // CPU time, not wall time: the test machine is shared, and waiting for a core is not our cost.
      const started = process.cpuUsage();
      const vtt = toVtt(cuesOf(texts, lengths));
      const lrc = toLrc(cuesOf(texts, lengths), { title: 'T', artist: 'A', language: 'de' });
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000).toBeLessThan(500);
      expect(vtt.match(/ --> /g)).toHaveLength(6000);
      expect(vtt).toContain('\n6000\n02:30:');
      expect(lrc.split('\n')).toHaveLength(3 + 6000 + 1 + 1);
    });
  });

  describe(toLrc.name, () => {
    it('writes tags, one line per phrase, and an empty line where the last phrase ends', () => {
      const lrc = toLrc(cuesOf(['Erste\nZeile', 'Zweite'], [1_234_999, 2_000_000]), {
        title: 'Der Leuchtturmwärter',
        artist: 'Anna [Hg.]',
        language: 'de',
      });
      expect(lrc).toBe(
        '[ti:Der Leuchtturmwärter]\n[ar:Anna (Hg.)]\n[la:de]\n' +
          '[00:00.00]Erste Zeile\n[00:01.23]Zweite\n[00:03.23]\n',
      );
    });

    it('never lets a phrase read as a time or a tag', () => {
      const lrc = toLrc(cuesOf(['[01:02.00] Eins', '[ar:Wer] zwei [x]', 'drei [y]'], [1e6, 1e6, 1e6]), {
        title: 'T',
        artist: 'A',
        language: null,
      });
      expect(lrc.split('\n').slice(2, 5)).toEqual([
        '[00:00.00](01:02.00) Eins',
        '[00:01.00](ar:Wer) zwei [x]',
        '[00:02.00]drei [y]',
      ]);
    });

    it('leaves out tags that are not known', () => {
      expect(
        toLrc([{ startUs: 0, endUs: 10_000, text: 'x' }], { title: '', artist: '', language: null }),
      ).toBe('[00:00.00]x\n[00:00.01]\n');
    });

    it('rounds to the nearest centisecond, with minutes past 99', () => {
      expect(lrcTime(4_999)).toBe('[00:00.00]');
      expect(lrcTime(5_000)).toBe('[00:00.01]');
      expect(lrcTime(59_995_000)).toBe('[01:00.00]');
      expect(lrcTime(125 * 60_000_000 + 7_120_000)).toBe('[125:07.12]');
    });

    it('writes nothing timed for a chapter without phrases', () => {
      expect(toLrc([], { title: 'T', artist: 'A', language: 'de' })).toBe('[ti:T]\n[ar:A]\n[la:de]\n');
    });
  });
});
