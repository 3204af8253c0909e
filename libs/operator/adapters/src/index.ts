export * from './operator-http.module';
