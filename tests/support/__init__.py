"""Helpers the tests share: throwaway servers, service processes, clients."""
