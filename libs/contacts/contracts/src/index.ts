export * from './campaign-tags';
export * from './contact.views';
export * from './contacts.commands';
export * from './contacts.events';
