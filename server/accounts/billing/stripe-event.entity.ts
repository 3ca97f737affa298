import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Every webhook event handled, so that a repeated delivery changes nothing twice. */
@Entity('stripe_events')
export class StripeEvent {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;
}
