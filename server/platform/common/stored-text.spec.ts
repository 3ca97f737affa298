import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsString, validate } from 'class-validator';
import { Field } from './field';
import { AnyText, storedTextProblem } from './stored-text';

class Sample {
  @Field(IsString())
  title: string;

  @Field(AnyText(), IsString())
  password: string;

  // Decorators apply bottom-up: AnyText here comes after Field has added its rules.
  @AnyText()
  @Field(IsString())
  answer: string;
}

describe(storedTextProblem.name, () => {
  it('names the first character no stored text may hold', () => {
    expect(storedTextProblem('a\u0001b')).toBe(
      'contains a control character (U+0001), which text cannot hold.',
    );
    expect(storedTextProblem('\u001b[31mred')).toBe(
      'contains a control character (U+001B), which text cannot hold.',
    );
    expect(storedTextProblem('del\u007f')).toBe(
      'contains a control character (U+007F), which text cannot hold.',
    );
    expect(storedTextProblem('next\u0085line')).toBe(
      'contains a control character (U+0085), which text cannot hold.',
    );
    expect(storedTextProblem('\ufffe')).toBe('contains a noncharacter (U+FFFE), which text cannot hold.');
    expect(storedTextProblem('x\uffff')).toBe('contains a noncharacter (U+FFFF), which text cannot hold.');
    expect(storedTextProblem('a\0b')).toBe('contains a NUL character, which text cannot hold.');
    expect(storedTextProblem('a\ud800b')).toBe('contains text that is not valid Unicode.');
    expect(storedTextProblem('b\udc00')).toBe('contains text that is not valid Unicode.');
  });

  it('takes tabs, line breaks, emoji and every script', () => {
    for (const text of ['a\tb', 'line\r\nline\nline\r', 'ok 😀 \u00a0 日本語 é', '\ufeffbom', '\ufffd', ''])
      expect(storedTextProblem(text)).toBeNull();
  });

  it('refuses such text in every Field unless it is marked AnyText', async () => {
    const check = async (plain: object) =>
      (await validate(plainToInstance(Sample, plain))).map((error) => [error.property, error.constraints]);
    expect(await check({ title: 'a\u0002', password: 'p\u0002', answer: 'x\u0002' })).toEqual([
      [
        'title',
        { isStoredText: 'The title field contains a control character (U+0002), which text cannot hold.' },
      ],
    ]);
    expect(await check({ title: 'a\tb\r\nc', password: 'p', answer: 'x' })).toEqual([]);
  });
});
