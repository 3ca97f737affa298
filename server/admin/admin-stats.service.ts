import { sql } from '../database/sql';
import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { UserType } from '../users/user.entity';

export class AdminStats {
  @ApiProperty() books: number;
  @ApiProperty() chapters: number;
  @ApiProperty() phrases: number;
  @ApiProperty() members: number;
}

export class AdminStatsAnswer {
  @ApiProperty({ type: AdminStats }) data: AdminStats;
}

@Injectable()
export class AdminStatsService {
  constructor(private readonly db: DataSource) {}

  /** One query for the administrators' home page. */
  async stats(): Promise<AdminStatsAnswer> {
    const [row] = (await sql(
      this.db,
      `SELECT (SELECT COUNT(*) FROM books) AS books, (SELECT COUNT(*) FROM chapters) AS chapters,
              (SELECT COUNT(*) FROM phrases) AS phrases,
              (SELECT COUNT(*) FROM users WHERE user_type = ?) AS members`,
      [UserType.Member],
    )) as AdminStats[];
    return { data: row };
  }
}
