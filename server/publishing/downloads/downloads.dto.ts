import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty } from 'class-validator';
import type { Request } from 'express';
import { Field } from '../../platform/common/field';

export const DOWNLOAD_FORMATS = ['epub', 'audiobook'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export class DownloadLinkDto {
  @Field(
    IsNotEmpty({ message: 'The format field is required.' }),
    IsIn(DOWNLOAD_FORMATS, { message: 'The format must be epub or audiobook.' }),
  )
  @ApiProperty({ enum: DOWNLOAD_FORMATS })
  format: DownloadFormat;
}

export class DownloadLink {
  @ApiProperty({
    description:
      "The signed download URL (no token needed), naming the member; valid 5 minutes, and only until the member's password changes.",
    example: '/api/v1/downloads/le-petit-voyage/epub?exp=1764231000&sig=…&u=12&v=0',
  })
  url: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

export class DownloadLinkAnswer {
  @ApiProperty({ type: DownloadLink }) data: DownloadLink;
}

export class DownloadMessage {
  @ApiProperty({ example: 'The audiobook is being made. Try again in 30 seconds.' }) message: string;
}

/**
 * The parts that make a request a signed link's: its expiry and signature, and the member it names. Not
 * `v` alone: a reading app may add `?v=2` of its own (a cache-buster) to a download it signs in for.
 */
export const LINK_TRIGGERS = ['exp', 'sig', 'u'] as const;

/** A signed link's parts (`?exp=&sig=&u=&v=`): with the triggers, the member's token version when it was made. */
export const LINK_PARAMS = [...LINK_TRIGGERS, 'v'] as const;

/** A signed link's parts as the client sent them, checked by DownloadAccess. */
export type LinkQuery = Partial<Record<(typeof LINK_PARAMS)[number], unknown>>;

/** Whether the request carries a link (any of its triggers): it then decides alone, and must be whole, `v` too. */
export const hasLink = (query: LinkQuery): boolean => LINK_TRIGGERS.some((name) => query[name] !== undefined);

/** Reads the link's parts from the query without a DTO: any other parameter is ignored, never a 422. */
export const SignedLinkQuery = createParamDecorator((_data: unknown, ctx: ExecutionContext): LinkQuery => {
  const { query } = ctx.switchToHttp().getRequest<Request>();
  return Object.fromEntries(LINK_PARAMS.map((name) => [name, query[name]]));
});
