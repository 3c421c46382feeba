import { AuthRecordRepository, type DatabaseHandle } from '@radar/db';
import { type MaintenanceJob, maintenanceJobSchema } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';

/** Housekeeping that keeps tables small. Idempotent: running it twice deletes nothing more. */
export function createMaintenanceProcessor(database: DatabaseHandle) {
  const authRecords = new AuthRecordRepository(database.db);
  return async (job: { data: unknown }) => {
    const parsed = maintenanceJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid maintenance payload: ${parsed.error.message}`);
    const payload: MaintenanceJob = parsed.data;
    switch (payload.task) {
      case 'purge-expired-auth-records':
        return { outcome: 'success', purged: await authRecords.purgeExpired() };
    }
  };
}
