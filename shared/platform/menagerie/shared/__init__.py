"""The library every Menagerie service uses: engine contract, match store, gRPC bootstrap."""
