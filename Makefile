# Builds hayate with cargo for testers that expect make, as OpenBench does: it runs
# `make EXE=<path>`, then `<path> bench` and reads the last line, `<nodes> nodes <nps> nps`.
# `make` alone builds target/release/hayate and copies it to ./hayate.

EXE ?= hayate
CARGO ?= cargo

.PHONY: all bench spsa clean

all:
	$(CARGO) build --release
	cp target/release/hayate $(EXE)

# The bench signature: the node count of `hayate bench` (one thread, fixed depth), which
# must equal the one kept in .ci/bench-signature.
bench: all
	./$(EXE) bench

# The `spsa` build (the search's constants as USI options), alone in its own folder:
# shogiarena copies the engine's whole folder into every run.
spsa:
	$(CARGO) build --release --features spsa --target-dir target/spsa-build
	mkdir -p target/spsa
	cp target/spsa-build/release/hayate target/spsa/hayate

clean:
	$(CARGO) clean
	rm -f $(EXE)
