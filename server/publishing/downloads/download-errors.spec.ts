import { HttpException } from '@nestjs/common';
import { UndecodableAudioError } from '../formats/audio-measures';
import { FfmpegError } from '../imports/ffmpeg';
import { AnswerWithHeaders } from '../../platform/common/api-error';
import { asAnswer } from './download-errors';

const answered = (error: unknown) => {
  const answer = asAnswer(error);
  expect(answer).toBeInstanceOf(HttpException);
  const http = answer as HttpException;
  return {
    status: http.getStatus(),
    body: http.getResponse(),
    headers: answer instanceof AnswerWithHeaders ? answer.headers : {},
  };
};

describe('what the audio tools’ failures answer a downloader', () => {
  it('asks to come back later when ffmpeg ran out of time, and says which book is at fault otherwise', () => {
    expect(answered(new FfmpegError('timeout', 'ffmpeg took too long'))).toEqual({
      status: 503,
      body: { message: 'The server is busy reading this book’s audio. Try again in a minute.' },
      headers: { 'Retry-After': '60' },
    });
    expect(answered(new FfmpegError('failed', 'exit 1'))).toEqual({
      status: 422,
      body: { message: 'This book cannot be downloaded now: one of its clips is not audio.' },
      headers: {},
    });
    expect(answered(new FfmpegError('missing', 'no ffmpeg')).status).toBe(503);
    expect(answered(new UndecodableAudioError('lines/a.mp3', 'not audio')).status).toBe(422);
  });

  it('leaves any other error to the error filter', () => {
    const other = new Error('database down');
    expect(asAnswer(other)).toBe(other);
  });
});
