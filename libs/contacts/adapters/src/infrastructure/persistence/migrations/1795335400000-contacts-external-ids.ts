import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * External ids of contacts (POST /v1/events resolves `contact.external_id` first): the integrator's
 * own id of a person, unique per (account, external_source, external_id), `external_source` '' when
 * none is sent. A separate table rather than a column: a contact may be known under several sources,
 * and merges keep the absorbed contact's links (resolution follows the merge chain to the survivor).
 */
export class ContactsExternalIds1795335400000 implements MigrationInterface {
  name = 'ContactsExternalIds1795335400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE contacts.contact_external_ids (
        account_id uuid NOT NULL,
        external_source text NOT NULL DEFAULT '',
        external_id text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 255),
        contact_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT contact_external_ids_unique PRIMARY KEY (account_id, external_source, external_id)
      )`);
    await queryRunner.query(`CREATE INDEX contact_external_ids_contact_idx ON contacts.contact_external_ids (account_id, contact_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS contacts.contact_external_ids`);
  }
}
