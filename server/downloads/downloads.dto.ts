import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty } from 'class-validator';
import type { Request } from 'express';
import { Field } from '../common/field';

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
    description: 'The signed download URL (no token needed), naming the member; valid 5 minutes.',
    example: '/api/v1/downloads/le-petit-voyage/epub?exp=1764231000&sig=…&u=12',
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

/** A signed link's parts as the client sent them (`?u=&exp=&sig=`), checked by DownloadAccess. */
export interface LinkQuery {
  u?: unknown;
  exp?: unknown;
  sig?: unknown;
}

/** Reads the link's parts from the query without a DTO: any other parameter is ignored, never a 422. */
export const SignedLinkQuery = createParamDecorator((_data: unknown, ctx: ExecutionContext): LinkQuery => {
  const { u, exp, sig } = ctx.switchToHttp().getRequest<Request>().query;
  return { u, exp, sig };
});
