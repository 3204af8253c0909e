export * from './domain/quotes.errors';
