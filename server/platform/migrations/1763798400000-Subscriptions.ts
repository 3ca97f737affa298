import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, timestampNow } from './column-types';

export class Subscriptions1763798400000 implements MigrationInterface {
  name = 'Subscriptions1763798400000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'subscriptions',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'stripe_customer_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'stripe_subscription_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'status', type: 'varchar', length: '32', default: `'none'` },
          { name: 'trial_ends_at', type: time, isNullable: true },
          { name: 'current_period_end', type: time, isNullable: true },
          { name: 'cancel_at_period_end', type: 'boolean', default: false },
          { name: 'had_trial', type: 'boolean', default: false },
          timestampNow(time, 'updated_at'),
        ],
        indices: [{ name: 'UQ_subscriptions_customer', columnNames: ['stripe_customer_id'], isUnique: true }],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'stripe_events',
        columns: [
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'type', type: 'varchar', length: '100' },
          timestampNow(time, 'received_at'),
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('stripe_events');
    await db.dropTable('subscriptions');
  }
}
