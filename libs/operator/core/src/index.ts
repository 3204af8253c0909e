export * from './application/operator-core.providers';
export * from './application/ports/account-activity.read-model.port';
export * from './application/queries/list-account-activity/list-account-activity.query';
export * from './application/queries/list-account-emails/list-account-emails.query';
export * from './domain/sandbox.errors';
