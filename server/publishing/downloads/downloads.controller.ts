import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ReadingAppAuth } from '../../accounts/app-passwords/reading-app-auth';
import { CurrentUser, MaybeUser } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer, errorContent } from '../../platform/common/error-answer';
import type { User } from '../../accounts/users/user.entity';
import { AudiobookDownload } from './audiobook-download';
import { DownloadAccess } from './download-access';
import {
  DownloadLinkAnswer,
  DownloadLinkDto,
  DownloadMessage,
  LINK_PARAMS,
  LINK_TRIGGERS,
  SignedLinkQuery,
  type LinkQuery,
} from './downloads.dto';
import { DownloadsService } from './downloads.service';
import { AnswerWithHeadersFilter } from './navigation';

const binary = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
});
/** The signed link's parts, for a download button (POST downloads/{book_code}/link). */
const LinkParts = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  for (const name of LINK_PARAMS)
    ApiQuery({ name, required: false, description: 'From a signed link (POST …/link).' })(
      target,
      key,
      descriptor,
    );
};

/**
 * Books to take away (docs/formats.md "Downloads"): a bearer token, HTTP Basic with an app password, a
 * signed link, or nobody (the sample). Outside the page-cached guest/ prefix; every answer is private.
 */
@ErrorAnswer(
  401,
  'Wrong app password or bearer token, or a locked chapter for a visitor (with `WWW-Authenticate: Basic`).',
)
@ErrorAnswer(
  403,
  'An expired or altered link, one made before the password changed, or a locked chapter for a member without access.',
)
@ErrorAnswer(404, 'No such book or chapter.')
@ErrorAnswer(422, 'A clip or the cover is missing from storage, or a clip is not audio.')
@ErrorAnswer(429, 'Too many failed app passwords for this account or address: see Retry-After.')
@ErrorAnswer(
  503,
  'ffmpeg is not installed or is busy (Retry-After), or (for a browser) the audiobook is being made.',
)
@UseFilters(AnswerWithHeadersFilter)
@Controller('downloads/:bookCode')
export class DownloadsController {
  constructor(
    private readonly downloads: DownloadsService,
    private readonly access: DownloadAccess,
    private readonly m4b: AudiobookDownload,
  ) {}

  @ReadingAppAuth({ bearerMustBeValid: true, linkParams: LINK_TRIGGERS })
  @Get('epub')
  @LinkParts()
  @ApiProduces('application/epub+zip')
  @ApiOkResponse(binary('application/epub+zip', 'EPUB 3 with Media Overlays: the whole book, or its sample.'))
  epub(
    @Param('bookCode') bookCode: string,
    @MaybeUser() user: User | undefined,
    @SignedLinkQuery() link: LinkQuery,
    @Res({ passthrough: true }) res: Response,
  ) {
    // A client that leaves during the checks before the first byte stops them (`res`, not `req`: a
    // request's 'close' fires once its body is read). After the first byte, Nest destroys the stream.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    return this.downloads.epub(bookCode, user, link, gone.signal);
  }

  @ReadingAppAuth({ bearerMustBeValid: true, linkParams: LINK_TRIGGERS })
  @Get('audiobook')
  @LinkParts()
  @ApiProduces('audio/mp4')
  @ApiOkResponse(
    binary('audio/mp4', 'The M4B, with a strong ETag (Range and If-Range: 206, or 416 beyond the file).'),
  )
  @ApiResponse({
    status: 202,
    description:
      'Being made: ask again after Retry-After seconds (a browser navigation gets 503 and a small page).',
    type: DownloadMessage,
  })
  @ApiResponse({
    status: 206,
    ...binary(
      'audio/mp4',
      'The byte range asked for (Range, and If-Range if any names this ETag); ranges that touch are merged, and a suffix longer than the file gives the whole file.',
    ),
    headers: { 'Content-Range': { description: '`bytes start-end/size`.', schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 304,
    description: 'If-None-Match names this very file (its ETag): nothing to send.',
  })
  @ApiResponse({
    status: 416,
    ...errorContent('The range is not within the file.'),
    headers: { 'Content-Range': { description: '`bytes */size`.', schema: { type: 'string' } } },
  })
  async audiobook(
    @Param('bookCode') bookCode: string,
    @MaybeUser() user: User | undefined,
    @SignedLinkQuery() link: LinkQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const { book, edition } = await this.downloads.audiobook(bookCode, user, link);
    await this.m4b.send(book, edition, link.sig !== undefined, req, res);
  }

  @ReadingAppAuth({ bearerMustBeValid: true })
  @Get('chapter/:chapterNo/subtitles.vtt')
  @ApiProduces('text/vtt')
  @ApiOkResponse(binary('text/vtt', 'WebVTT, one cue per phrase.'))
  vtt(
    @Param('bookCode') bookCode: string,
    @Param('chapterNo') chapterNo: string,
    @MaybeUser() user: User | undefined,
  ) {
    return this.downloads.subtitles(bookCode, chapterNo, 'vtt', user);
  }

  @ReadingAppAuth({ bearerMustBeValid: true })
  @Get('chapter/:chapterNo/subtitles.lrc')
  @ApiProduces('text/plain')
  @ApiOkResponse(binary('text/plain', 'LRC, one timed line per phrase.'))
  lrc(
    @Param('bookCode') bookCode: string,
    @Param('chapterNo') chapterNo: string,
    @MaybeUser() user: User | undefined,
  ) {
    return this.downloads.subtitles(bookCode, chapterNo, 'lrc', user);
  }

  /**
   * A signed-in member's link (bearer only): the plan is checked again when it is followed; what can be
   * told cheaply (no ffmpeg, a missing file) is answered here.
   */
  @Post('link')
  @HttpCode(200)
  @ApiOkResponse({ type: DownloadLinkAnswer })
  link(@Param('bookCode') bookCode: string, @Body() dto: DownloadLinkDto, @CurrentUser() user: User) {
    return this.access.link(bookCode, dto.format, user);
  }
}
