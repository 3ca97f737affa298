import { sql } from '../../platform/database/sql';
import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { UserType } from '../../accounts/users/user.entity';

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
  constructor(
    private readonly db: DataSource,
    private readonly books: BooksRepository,
  ) {}

  /** The administrators' home page: the catalogue's counts and the members', side by side. */
  async stats(): Promise<AdminStatsAnswer> {
    const [counts, [{ members }]] = await Promise.all([
      this.books.counts(),
      sql<Array<{ members: number | string }>>(
        this.db,
        `SELECT COUNT(*) AS members FROM users WHERE user_type = ?`,
        [UserType.Member],
      ),
    ]);
    return { data: { ...counts, members: Number(members) } };
  }
}
